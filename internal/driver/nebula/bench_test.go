package nebula_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/cputime"
	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

// standInEnv makes the test binary serve a stand-in graphd instead of
// running tests, so that benchmarks measure the client's CPU alone.
const standInEnv = "STAMPEDE_NEBULA_STANDIN"

func TestMain(m *testing.M) {
	switch os.Getenv(standInEnv) {
	case "1":
		serveStandIn()
		return
	case "echo":
		serveEcho()
		return
	case "canned":
		serveCanned()
		return
	}
	os.Exit(m.Run())
}

// serveStandIn starts a stand-in graphd with a one-person space "g",
// prints its address and serves until stdin closes.
func serveStandIn() {
	srv, err := nebulatest.Start(nebulatest.NewStore(), nebulatest.Options{})
	if err != nil {
		fmt.Println("error", err)
		return
	}
	defer srv.Close()
	cfg := &nebula.Config{User: "root", Password: "nebula", ClientVersion: "3.0.0", ConnectTimeout: 5 * time.Second}
	s, err := nebula.Dial(context.Background(), srv.Addr(), cfg)
	if err != nil {
		fmt.Println("error", err)
		return
	}
	for _, q := range []string{"CREATE SPACE g(vid_type = INT64)", "USE g", "CREATE TAG Person(firstName string)", `INSERT VERTEX Person(firstName) VALUES 1:("Jan")`} {
		s.Execute(context.Background(), q)
	}
	s.Close()
	fmt.Println(srv.Addr())
	bufio.NewReader(os.Stdin).ReadString('\n') // until the benchmark ends
}

// serveEcho answers every length-prefixed frame with itself: the bare
// loopback round trip the driver's cost is compared with.
func serveEcho() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("error", err)
		return
	}
	fmt.Println(ln.Addr())
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 64<<10)
				for {
					if _, err := io.ReadFull(c, buf[:4]); err != nil {
						return
					}
					n := binary.BigEndian.Uint32(buf[:4])
					if _, err := io.ReadFull(c, buf[4:4+n]); err != nil {
						return
					}
					if _, err := c.Write(buf[:4+n]); err != nil {
						return
					}
				}
			}()
		}
	}()
	bufio.NewReader(os.Stdin).ReadString('\n')
	ln.Close()
}

// startHelper runs this test binary as a server (mode: standInEnv value)
// and returns its address and a stop function.
func startHelper(b *testing.B, mode string) (string, func()) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), standInEnv+"="+mode)
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	addr := strings.TrimSpace(line)
	if strings.HasPrefix(addr, "error") || addr == "" {
		b.Fatalf("helper: %q", line)
	}
	return addr, func() { stdin.Close(); cmd.Wait() }
}

// BenchmarkTCPRoundTripPeer is the peer of BenchmarkDoRecorded: the same
// request bytes (the execute frame of TestExecuteWireBytes) echoed by a
// server in another process, with no Thrift and no recording: what the
// kernel and Go's network poller cost per round trip on this machine.
func BenchmarkTCPRoundTripPeer(b *testing.B) {
	addr, stop := startHelper(b, "echo")
	defer stop()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	req := make([]byte, 63)
	binary.BigEndian.PutUint32(req, 59)
	resp := make([]byte, 63)
	b.ReportAllocs()
	c0 := cputime.Process()
	for b.Loop() {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write(req); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(c, resp); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cputime.Process()-c0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
}

// BenchmarkDoRecorded is the client's cost of one simple query on the
// driver path: render nothing, encode (THeader + compact), send, receive,
// decode, and record the request (responseTime, server latency, rows),
// against a stand-in graphd in another process, so that cpu-µs/op is
// this process's CPU (user + system) per query, the client alone.
func BenchmarkDoRecorded(b *testing.B) {
	addr, stop := startHelper(b, "1")
	defer stop()
	cfg := &nebula.Config{Addrs: []string{addr}, User: "root", Password: "nebula", Space: "g", ClientVersion: "3.0.0", ConnectTimeout: 5 * time.Second}
	d := nebula.New(cfg, 10*time.Second)
	conn, err := d.Conn(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"fetch"})
	go agg.Run()
	defer agg.Close()
	it := &vu.Iter{Rec: agg.Recorder(0, 0), Clock: clock}
	op := &driver.Op{Query: "FETCH PROP ON Person 1 YIELD Person.firstName"}
	ctx := context.Background()
	b.ReportAllocs()
	c0 := cputime.Process()
	for b.Loop() {
		start := it.Now()
		res := conn.Do(ctx, op)
		if res.Err != nil || res.Rows != 1 {
			b.Fatalf("%+v", res)
		}
		it.Request(op.Query, start, res)
	}
	b.ReportMetric(float64(cputime.Process()-c0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
	it.Rec.Flush()
}

// BenchmarkRecordNebulaResult is the recording side alone: one request
// with a server latency into the per-VU recorder. It must not allocate.
func BenchmarkRecordNebulaResult(b *testing.B) {
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"fetch"})
	go agg.Run()
	defer agg.Close()
	it := &vu.Iter{Rec: agg.Recorder(0, 0), Clock: clock}
	res := driver.Result{Rows: 1, ServerLatency: 180 * time.Microsecond, HasLatency: true}
	b.ReportAllocs()
	for b.Loop() {
		it.Request("FETCH PROP ON Person 1 YIELD Person.firstName", it.Now(), res)
	}
	it.Rec.Flush()
}

func TestRecordingDoesNotAllocate(t *testing.T) {
	if a := testing.Benchmark(BenchmarkRecordNebulaResult).AllocsPerOp(); a != 0 {
		t.Fatalf("recording a nebula result allocates %d times", a)
	}
}

// benchQuery is the simple query of the client-cost benchmarks.
const benchQuery = "FETCH PROP ON Person 1 YIELD Person.firstName"

// standInAnswer is the stand-in graphd's answer to benchQuery in a space
// with one person.
func standInAnswer() (*graphsvc.ExecutionResponse, error) {
	srv, err := nebulatest.Start(nebulatest.NewStore(), nebulatest.Options{})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	ctx := context.Background()
	cfg := &nebula.Config{User: "root", Password: "nebula", ClientVersion: "3.0.0", ConnectTimeout: 5 * time.Second}
	s, err := nebula.Dial(ctx, srv.Addr(), cfg)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var r *graphsvc.ExecutionResponse
	for _, q := range []string{"CREATE SPACE g(vid_type = INT64)", "USE g", "CREATE TAG Person(firstName string)", `INSERT VERTEX Person(firstName) VALUES 1:("Jan")`, benchQuery} {
		if r, err = s.Execute(ctx, q); err != nil {
			return nil, err
		}
		if r.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
			return nil, &nebula.ServerError{Code: r.ErrorCode, Msg: string(r.ErrorMsg)}
		}
	}
	return r, nil
}

// BenchmarkClientInMemory is the client's own cost of one simple query:
// Conn.Do (deadline, encode, THeader frame, decode the canned answer
// frame) and recording it (vu.Iter.Request into a per-VU recorder),
// over a net.Conn in memory, so no kernel and no server work is in it
// except the canned graphd copying its answer frame. "own" is the
// driver's path, "apache" the path before its own codec.
func BenchmarkClientInMemory(b *testing.B) {
	answer, err := standInAnswer()
	if err != nil {
		b.Fatal(err)
	}
	for _, path := range []string{"own", "apache"} {
		b.Run(path, func(b *testing.B) {
			c, err := nebula.MemConn(answer, 10*time.Second)
			if err != nil {
				b.Fatal(err)
			}
			do := c.Do
			if path == "apache" {
				do = c.DoApache
			}
			reg := metrics.NewRegistry()
			clock := metrics.NewClock()
			agg := metrics.NewAggregator(reg, clock, []string{"fetch"})
			go agg.Run()
			defer agg.Close()
			it := &vu.Iter{Rec: agg.Recorder(0, 0), Clock: clock}
			op := &driver.Op{Query: benchQuery}
			ctx, cancel := context.WithCancel(context.Background()) // a run's context
			defer cancel()
			b.ReportAllocs()
			c0 := cputime.Process()
			for b.Loop() {
				start := it.Now()
				res := do(ctx, op)
				if res.Err != nil || res.Rows != 1 {
					b.Fatalf("%+v", res)
				}
				it.Request(op.Query, start, res)
			}
			b.ReportMetric(float64(cputime.Process()-c0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
			it.Rec.Flush()
		})
	}
}

// TestClientInMemoryAllocs: the driver's path does not allocate per
// query in the steady state (the canned graphd and the recorder
// included).
func TestClientInMemoryAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmark")
	}
	r := testing.Benchmark(func(b *testing.B) {
		answer, err := standInAnswer()
		if err != nil {
			b.Fatal(err)
		}
		c, err := nebula.MemConn(answer, 10*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		op := &driver.Op{Query: benchQuery}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var n int64
		c.Do(ctx, op) // first call: buffers grow, the context is watched
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			n += c.Do(ctx, op).Rows
		}
		if n != int64(b.N) {
			b.Fatalf("%d rows in %d calls", n, b.N)
		}
	})
	if a := r.AllocsPerOp(); a != 0 {
		t.Fatalf("Conn.Do allocates %d times per query", a)
	}
}

// serveCanned serves a canned graphd (nebula.ServeCanned) whose execute
// answer is the stand-in's answer to benchQuery: the same bytes the
// stand-in sends, without its query engine's work per call.
func serveCanned() {
	answer, err := standInAnswer()
	if err != nil {
		fmt.Println("error", err)
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("error", err)
		return
	}
	fmt.Println(ln.Addr())
	go nebula.ServeCanned(ln, answer)
	bufio.NewReader(os.Stdin).ReadString('\n')
	ln.Close()
}

// BenchmarkDoRecordedCanned is BenchmarkDoRecorded against a canned
// graphd in another process (serveCanned), so that the round trip's wall
// time is as short as the bare round trip's: CPU a process spends while
// it waits (Go's scheduler and sysmon waking up) grows with the wait,
// and the stand-in's query engine makes it ~4 times longer. "own" is the
// driver's path, "apache" the path before its own codec (DoApache).
func BenchmarkDoRecordedCanned(b *testing.B) {
	for _, path := range []string{"own", "apache"} {
		b.Run(path, func(b *testing.B) {
			addr, stop := startHelper(b, "canned")
			defer stop()
			cfg := &nebula.Config{Addrs: []string{addr}, User: "root", Password: "nebula", Space: "g", ClientVersion: "3.0.0", ConnectTimeout: 5 * time.Second}
			conn, err := nebula.New(cfg, 10*time.Second).Conn(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			do := conn.(*nebula.Conn).Do
			if path == "apache" {
				do = conn.(*nebula.Conn).DoApache
			}
			reg := metrics.NewRegistry()
			clock := metrics.NewClock()
			agg := metrics.NewAggregator(reg, clock, []string{"fetch"})
			go agg.Run()
			defer agg.Close()
			it := &vu.Iter{Rec: agg.Recorder(0, 0), Clock: clock}
			op := &driver.Op{Query: benchQuery}
			ctx, cancel := context.WithCancel(context.Background()) // a run's context
			defer cancel()
			b.ReportAllocs()
			c0 := cputime.Process()
			for b.Loop() {
				start := it.Now()
				res := do(ctx, op)
				if res.Err != nil || res.Rows != 1 {
					b.Fatalf("%+v", res)
				}
				it.Request(op.Query, start, res)
			}
			b.ReportMetric(float64(cputime.Process()-c0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
			it.Rec.Flush()
		})
	}
}

// BenchmarkTCPRoundTripCanned is the peer of BenchmarkDoRecordedCanned:
// the driver's request frame for benchQuery written to the same canned
// graphd and its answer frame read back, with no Thrift, no deadline and
// no recording: the kernel's and Go's network poller's share.
func BenchmarkTCPRoundTripCanned(b *testing.B) {
	addr, stop := startHelper(b, "canned")
	defer stop()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	req := nebula.ExecuteFrame(1, benchQuery)
	buf := make([]byte, 64<<10)
	b.ReportAllocs()
	c0 := cputime.Process()
	for b.Loop() {
		if _, err := c.Write(req); err != nil {
			b.Fatal(err)
		}
		n := 0
		for n < 4 || n < 4+int(binary.BigEndian.Uint32(buf)) {
			m, err := c.Read(buf[n:])
			if err != nil {
				b.Fatal(err)
			}
			n += m
		}
	}
	b.ReportMetric(float64(cputime.Process()-c0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
}

// BenchmarkCannedPaired measures the driver's overhead above the bare
// round trip in one process, against one canned graphd: blocks of 200
// queries alternate between the driver's path (Conn.Do + recording, as
// BenchmarkDoRecordedCanned; own or apache) and the peer's (BenchmarkTCPRoundTripCanned's
// write + read of the same bytes), so that the machine's load, which
// moves the CPU per round trip by ±10 µs between runs here, weighs on
// both alike. It reports both and their difference: driver-µs/op,
// peer-µs/op, overhead-µs/op (CPU per query).
func BenchmarkCannedPaired(b *testing.B) {
	for _, path := range []string{"own", "apache"} {
		b.Run(path, func(b *testing.B) { cannedPaired(b, path) })
	}
}

func cannedPaired(b *testing.B, path string) {
	addr, stop := startHelper(b, "canned")
	defer stop()
	cfg := &nebula.Config{Addrs: []string{addr}, User: "root", Password: "nebula", Space: "g", ClientVersion: "3.0.0", ConnectTimeout: 5 * time.Second}
	conn, err := nebula.New(cfg, 10*time.Second).Conn(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	do := conn.(*nebula.Conn).Do
	if path == "apache" {
		do = conn.(*nebula.Conn).DoApache
	}
	req := nebula.ExecuteFrame(1, benchQuery)
	buf := make([]byte, 64<<10)

	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"fetch"})
	go agg.Run()
	defer agg.Close()
	it := &vu.Iter{Rec: agg.Recorder(0, 0), Clock: clock}
	op := &driver.Op{Query: benchQuery}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	const block = 200
	var drv, peer time.Duration
	b.ReportAllocs()
	for n := 0; n < b.N; n += block {
		k := min(block, b.N-n)
		c0 := cputime.Process()
		for range k {
			start := it.Now()
			res := do(ctx, op)
			if res.Err != nil || res.Rows != 1 {
				b.Fatalf("%+v", res)
			}
			it.Request(op.Query, start, res)
		}
		c1 := cputime.Process()
		for range k {
			if _, err := raw.Write(req); err != nil {
				b.Fatal(err)
			}
			got := 0
			for got < 4 || got < 4+int(binary.BigEndian.Uint32(buf)) {
				m, err := raw.Read(buf[got:])
				if err != nil {
					b.Fatal(err)
				}
				got += m
			}
		}
		drv += c1 - c0
		peer += cputime.Process() - c1
	}
	it.Rec.Flush()
	per := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / float64(b.N) }
	b.ReportMetric(per(drv), "driver-µs/op")
	b.ReportMetric(per(peer), "peer-µs/op")
	b.ReportMetric(per(drv-peer), "overhead-µs/op")
}
