package http

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/vu"
)

// runHTTP runs http.Request against url under cfg, in an event loop
// (the default) or a goroutine per VU, and returns its snapshot.
func runHTTP(t *testing.T, url string, goroutines bool, timeout time.Duration, cfg engine.Config) *metrics.ScenarioSnapshot {
	t.Helper()
	return runHTTPCtx(t, context.Background(), url, goroutines, timeout, cfg)
}

// runHTTPCtx is runHTTP stopped when ctx ends (Ctrl+C).
func runHTTPCtx(t *testing.T, ctx context.Context, url string, goroutines bool, timeout time.Duration, cfg engine.Config) *metrics.ScenarioSnapshot {
	t.Helper()
	o := DefaultOptions()
	o.Goroutines = goroutines
	cfg = cfg.Defaults()
	env := &workload.Env{Target: url, MaxVUs: int(cfg.MaxVUsNeeded()), Metrics: metrics.NewRegistry(), Timeout: timeout}
	opened, err := New(o).Open(t.Context(), env, []string{"http.Request"})
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	sc := opened.Scenarios["http.Request"]
	if _, ok := sc.(vu.Multiplexed); !ok {
		t.Fatal("http.Request is not vu.Multiplexed")
	}
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(env.Metrics, clock, []string{"http.Request"})
	go agg.Run()
	if _, err := engine.Run(ctx, engine.Plan{Scenarios: []engine.Spec{{Name: "http.Request", Scenario: sc, Config: cfg}}}, engine.Deps{Agg: agg, Clock: clock}); err != nil {
		agg.Close()
		t.Fatal(err)
	}
	agg.Close()
	return agg.Snapshot().Scenario("http.Request")
}

// hangingServer answers no request (for 5 s, or until the client goes).
func hangingServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func modes() []struct {
	name       string
	goroutines bool
} {
	return []struct {
		name       string
		goroutines bool
	}{{"event loop", false}, {"goroutines", true}}
}

// TestLoopRecordsWhatGoroutinesRecord: the same requests give the same
// counts and the same k6 metrics in an event loop as with a goroutine per
// VU, under each closed-model executor, keep-alive or not.
func TestLoopRecordsWhatGoroutinesRecord(t *testing.T) {
	var conns atomic.Int64
	keep := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("hello"))
	}))
	keep.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	keep.Start()
	defer keep.Close()
	closing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		w.Write([]byte("bye"))
	}))
	defer closing.Close()
	chunked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 3000)))
		w.(http.Flusher).Flush()
		w.Write([]byte(strings.Repeat("y", 40000)))
	}))
	defer chunked.Close()
	// IPv6 loopback, closing every connection: the loop dials [::1] anew
	// for every request.
	v6 := httptest.NewUnstartedServer(closing.Config.Handler)
	ln6, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Fatal(err)
	}
	v6.Listener.Close()
	v6.Listener = ln6
	v6.Start()
	defer v6.Close()
	for _, tc := range []struct {
		name   string
		url    string
		cfg    engine.Config
		want   int64 // requests (0: a duration, at least some)
		closes bool
	}{
		{"shared-iterations, keep-alive", keep.URL, engine.Config{Executor: engine.SharedIterations, VUs: 5, Iterations: 300, MaxDuration: time.Minute}, 300, false},
		{"per-vu-iterations, keep-alive", keep.URL, engine.Config{Executor: engine.PerVUIterations, VUs: 4, Iterations: 25, MaxDuration: time.Minute}, 100, false},
		{"constant-vus", keep.URL, engine.Config{Executor: engine.ConstantVUs, VUs: 3, Duration: 300 * time.Millisecond}, 0, false},
		{"Connection: close", closing.URL, engine.Config{Executor: engine.SharedIterations, VUs: 2, Iterations: 40, MaxDuration: time.Minute}, 40, true},
		{"IPv6, Connection: close", v6.URL, engine.Config{Executor: engine.SharedIterations, VUs: 2, Iterations: 20, MaxDuration: time.Minute}, 20, true},
		{"chunked body over reads", chunked.URL, engine.Config{Executor: engine.SharedIterations, VUs: 2, Iterations: 30, MaxDuration: time.Minute}, 30, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, m := range modes() {
				t.Run(m.name, func(t *testing.T) {
					before := conns.Load()
					s := runHTTP(t, tc.url, m.goroutines, 10*time.Second, tc.cfg)
					n := s.Counters[metrics.HTTPReqs]
					if tc.want > 0 && n != tc.want || n <= 0 {
						t.Fatalf("http_reqs %d, want %d (errors %v)", n, tc.want, s.Errors)
					}
					if len(s.Errors) > 0 || s.Counters[metrics.Iterations] != n {
						t.Fatalf("iterations %d, errors %v", s.Counters[metrics.Iterations], s.Errors)
					}
					for _, name := range []string{metrics.HTTPReqDuration, metrics.HTTPReqWaiting, metrics.HTTPReqSending, metrics.HTTPReqReceiving, metrics.HTTPReqConnecting, metrics.HTTPReqBlocked} {
						if tr := s.Trends[name]; tr == nil || tr.Hist.TotalCount() != n {
							t.Errorf("%s has %v samples, want %d", name, tr, n)
						}
					}
					if s.Counters[metrics.DataReceived] < n*int64(len("hello")) || s.Counters[metrics.DataSent] < n*int64(len("GET / HTTP/1.1\r\n")) {
						t.Errorf("data_received %d, data_sent %d for %d requests", s.Counters[metrics.DataReceived], s.Counters[metrics.DataSent], n)
					}
					// Each VU dials once (its first request's connecting
					// time), or once per request when the server closes.
					var dials int64
					for _, b := range s.Trends[metrics.HTTPReqConnecting].Hist.Distribution() {
						if b.To > 0 {
							dials += b.Count
						}
					}
					vus := tc.cfg.VUs
					if tc.closes && dials != n || !tc.closes && dials != vus {
						t.Errorf("%d requests dialled, want %d", dials, map[bool]int64{true: n, false: vus}[tc.closes])
					}
					if tc.url == keep.URL && tc.cfg.Executor != engine.ConstantVUs {
						if opened := conns.Load() - before; opened != vus+1 { // + the probe of Open
							t.Errorf("the server saw %d connections, want %d (one per VU and the probe)", opened, vus+1)
						}
					}
				})
			}
		})
	}
}

// TestLoopFailures: a request past --timeout fails with "request timeout"
// in time, a refused connection is counted and backed off, in both modes.
func TestLoopFailures(t *testing.T) {
	hang := hangingServer(t)
	for _, m := range modes() {
		t.Run(m.name+"/timeout", func(t *testing.T) {
			start := time.Now()
			s := runHTTP(t, hang.URL, m.goroutines, 200*time.Millisecond, engine.Config{Executor: engine.SharedIterations, VUs: 2, Iterations: 4, MaxDuration: time.Minute})
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("4 requests of 200 ms timeout on 2 VUs took %v", took)
			}
			if got := s.Errors["request timeout"]; got != 4 {
				t.Errorf("errors %v, want 4 request timeouts", s.Errors)
			}
		})
	}
	for _, m := range modes() {
		t.Run(m.name+"/refused", func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			var accepted atomic.Int64
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					if accepted.Add(1) == 1 {
						continue // the probe of Open: let it go
					}
					// The VU's connection: close the listener, so that the
					// redial is refused, and answer once. The whole
					// request is read first: closing with some of it unread
					// would reset the connection before the answer is read.
					br := bufio.NewReader(c)
					for {
						line, err := br.ReadString('\n')
						if err != nil || line == "\r\n" {
							break
						}
					}
					ln.Close() // before the answer: no redial may reach the backlog
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
					c.Close()
					return
				}
			}()
			s := runHTTP(t, "http://"+ln.Addr().String()+"/", m.goroutines, time.Second, engine.Config{Executor: engine.SharedIterations, VUs: 1, Iterations: 3, MaxDuration: time.Minute})
			if s.Counters[metrics.HTTPReqs] != 3 {
				t.Fatalf("http_reqs %d, want 3", s.Counters[metrics.HTTPReqs])
			}
			var refused int64
			for msg, n := range s.Errors {
				if strings.Contains(msg, "refused") {
					refused += n
				}
			}
			if refused != 2 {
				t.Errorf("errors %v, want 2 refused connections", s.Errors)
			}
		})
	}
}

// TestLoopGracefulStop: requests still waiting when the graceful stop
// runs out are cut, not completed and not failed, and the run ends then,
// in both modes.
func TestLoopGracefulStop(t *testing.T) {
	hang := hangingServer(t)
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			start := time.Now()
			s := runHTTP(t, hang.URL, m.goroutines, time.Minute, engine.Config{Executor: engine.ConstantVUs, VUs: 3, Duration: 200 * time.Millisecond, GracefulStop: 200 * time.Millisecond})
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("the run took %v past its 200 ms + 200 ms graceful stop", took)
			}
			if s.Cut != 3 || s.Counters[metrics.Iterations] != 0 || s.Counters[metrics.HTTPReqs] != 0 || len(s.Errors) > 0 {
				t.Errorf("cut %d, iterations %d, http_reqs %d, errors %v; want 3 cut and nothing else", s.Cut, s.Counters[metrics.Iterations], s.Counters[metrics.HTTPReqs], s.Errors)
			}
		})
	}
}

// TestLoopStopsOnInterrupt: Ctrl+C (the run's context cancelled) ends a
// run whose requests are all waiting within the 2 s the CLI promises.
func TestLoopStopsOnInterrupt(t *testing.T) {
	hang := hangingServer(t)
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			start := time.Now()
			s := runHTTPCtx(t, ctx, hang.URL, m.goroutines, time.Minute, engine.Config{Executor: engine.ConstantVUs, VUs: 20, Duration: time.Minute})
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("stopped after %v", took)
			}
			if len(s.Errors) > 0 || s.Counters[metrics.HTTPReqs] != 0 {
				t.Errorf("an interrupted request was recorded: http_reqs %d, errors %v", s.Counters[metrics.HTTPReqs], s.Errors)
			}
		})
	}
}
