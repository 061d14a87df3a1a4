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
	"syscall"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
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
	c0 := cpuTime()
	for b.Loop() {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write(req); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(c, resp); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
	it := &engine.Iter{Rec: agg.Recorder(0, 0), Clock: clock}
	op := &driver.Op{Query: "FETCH PROP ON Person 1 YIELD Person.firstName"}
	ctx := context.Background()
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		start := it.Now()
		res := conn.Do(ctx, op)
		if res.Err != nil || res.Rows != 1 {
			b.Fatalf("%+v", res)
		}
		it.Request(op.Query, start, res)
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
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
	it := &engine.Iter{Rec: agg.Recorder(0, 0), Clock: clock}
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
