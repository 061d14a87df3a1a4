package http

import (
	"bufio"
	"context"
	"net"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/cputime"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/vu"
)

// fastServer answers every request on a connection with a fixed 200.
func fastServer(b testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ln.Close() })
	resp := []byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadSlice('\n')
					if err != nil {
						return
					}
					if len(line) == 2 { // end of the request's headers
						if _, err := c.Write(resp); err != nil {
							return
						}
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}

// loopbackScenario opens http.Request against fastServer (with k6's HTTP
// metrics when k6) and makes its VU 0, recorded by agg on clock.
func loopbackScenario(tb testing.TB, k6 bool) (sc *scenario, u vu.VU, agg *metrics.Aggregator, clock metrics.Clock) {
	reg := metrics.NewRegistry()
	env := &workload.Env{Target: fastServer(tb), MaxVUs: 1, Metrics: reg}
	o, err := New(DefaultOptions()).Open(context.Background(), env, []string{"http.Request"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { o.Close() })
	sc = o.Scenarios["http.Request"].(*scenario)
	if !k6 {
		sc.http = nil
	}
	clock = metrics.NewClock()
	agg = metrics.NewAggregator(reg, clock, []string{"http.Request"})
	go agg.Run()
	tb.Cleanup(func() { agg.Close() })
	if u, err = sc.NewVU(context.Background(), 0); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { u.Close() })
	return sc, u, agg, clock
}

// loopbackVU is one VU of http.Request against fastServer, recording as
// the engine records (with k6's HTTP metrics when k6); iterate runs one
// iteration.
func loopbackVU(tb testing.TB, k6 bool) (iterate func(), flush func()) {
	_, u, agg, clock := loopbackScenario(tb, k6)
	rec := agg.Recorder(0, 0)
	it := &vu.Iter{Rec: rec, Clock: clock}
	ctx := context.Background()
	iterate = func() {
		it.Start = clock.Now()
		it.Intended = it.Start
		if err := u.Iterate(ctx, it); err != nil {
			tb.Fatal(err)
		}
		end := clock.Now()
		rec.Iteration(end, end-it.Start)
	}
	return iterate, rec.Flush
}

// BenchmarkIteration is one http.Request iteration on a loopback
// keep-alive connection, recorded as the engine records it, with k6's HTTP
// metrics (k6) and without them (responseTime only, as before they
// existed; the driver still reads its phase clocks). cpu-ns/op is the
// process's CPU time per iteration (client, server goroutine and
// aggregator: the same for both but for the recording), less sensitive to
// a busy machine than ns/op. The difference is the recording cost of k6's
// metrics.
func BenchmarkIteration(b *testing.B) {
	for _, k6 := range []bool{false, true} {
		name := "responseTime-only"
		if k6 {
			name = "k6-metrics"
		}
		b.Run(name, func(b *testing.B) {
			iterate, flush := loopbackVU(b, k6)
			b.ReportAllocs()
			cpu0 := cputime.Process()
			for b.Loop() {
				iterate()
			}
			flush()
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestIterationAllocatesNothing: a steady-state request, recorded with
// every k6 HTTP metric, allocates nothing on the client (the server
// goroutine reuses its buffers too).
func TestIterationAllocatesNothing(t *testing.T) {
	iterate, flush := loopbackVU(t, true)
	defer flush()
	for range 100 { // buffers and histograms grow to their steady size
		iterate()
	}
	if n := testing.AllocsPerRun(1000, iterate); n >= 0.01 {
		t.Errorf("%.3f allocations per request, want 0", n)
	}
}

// loopbackLoopVU is loopbackVU's VU adopted by an event loop (the
// engine's default for plain HTTP): iterate starts a request and waits
// in the loop until it ended.
func loopbackLoopVU(tb testing.TB) (iterate func(), flush func()) {
	sc, u, agg, clock := loopbackScenario(tb, true)
	lp, err := sc.NewLoop()
	if err != nil || lp == nil {
		tb.Fatalf("no loop: %v", err)
	}
	tb.Cleanup(func() { lp.Close() })
	if err := lp.Add(u, 0); err != nil {
		tb.Fatal(err)
	}
	rec := agg.Recorder(0, 0)
	it := &vu.Iter{Rec: rec, Clock: clock}
	ctx := context.Background()
	done := false
	ended := func(int, error) { done = true }
	iterate = func() {
		it.Start = clock.Now()
		it.Intended = it.Start
		finished, err := lp.Start(ctx, 0, it)
		if err != nil {
			tb.Fatal(err)
		}
		for done = finished; !done; {
			if err := lp.Wait(ctx, time.Second, ended); err != nil {
				tb.Fatal(err)
			}
		}
		end := clock.Now()
		rec.Iteration(end, end-it.Start)
	}
	return iterate, rec.Flush
}

// TestLoopIterationAllocatesNothing: the same in an event loop.
func TestLoopIterationAllocatesNothing(t *testing.T) {
	iterate, flush := loopbackLoopVU(t)
	defer flush()
	for range 100 {
		iterate()
	}
	if n := testing.AllocsPerRun(1000, iterate); n >= 0.01 {
		t.Errorf("%.3f allocations per request, want 0", n)
	}
}
