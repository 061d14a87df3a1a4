package metrics

import (
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// run records with fn on one recorder of a fresh aggregator (warm-up end
// warm) and returns the closed aggregator's only scenario.
func run(t *testing.T, reg *Registry, warm time.Duration, fn func(r *Recorder, a *Aggregator)) *ScenarioSnapshot {
	t.Helper()
	a := NewAggregator(reg, ClockAt(time.Now().Add(time.Hour)), []string{"s"})
	go a.Run()
	r := a.Recorder(0, warm)
	fn(r, a)
	r.Flush()
	a.Close()
	return a.Snapshot().Scenarios[0]
}

// histCounts maps every trend of sc to its number of values, min and max.
func histCounts(sc *ScenarioSnapshot) map[string][3]int64 {
	out := map[string][3]int64{}
	for name, tr := range sc.Trends {
		out[name] = [3]int64{tr.Hist.TotalCount(), tr.Hist.Min(), tr.Hist.Max()}
	}
	return out
}

// What each Recorder method adds to the snapshot, value by value.
func TestRecorderRecords(t *testing.T) {
	reg := NewRegistry()
	custom := reg.MustAdd(Def{Name: "bytes_out", Kind: KindCounter, Unit: UnitBytes})
	size := reg.MustAdd(Def{Name: "msg_size", Kind: KindTrend, Unit: UnitBytes})
	sec := time.Second
	tests := []struct {
		name     string
		warm     time.Duration
		record   func(r *Recorder, a *Aggregator)
		counters map[string]int64 // only non-zero ones are compared, plus all listed
		rates    map[string]Rate
		trends   map[string][3]int64 // count, min, max
		errors   map[string]int64
		gauges   map[string]Gauge
	}{{
		name: "successful op with service time and latency",
		record: func(r *Recorder, _ *Aggregator) {
			r.Op(sec, 1500, 1200, 700, 3, "")
		},
		counters: map[string]int64{Requests: 1},
		rates:    map[string]Rate{RequestsFailed: {Passes: 0, Fails: 1}},
		trends: map[string][3]int64{ResponseTime: {1, 1500, 1500}, ServiceTime: {1, 1200, 1200},
			Latency: {1, 700, 700}, Rows: {1, 3, 3}},
	}, {
		name: "op without service time nor latency",
		record: func(r *Recorder, _ *Aggregator) {
			r.Op(sec, 10, -1, -1, 0, "")
		},
		counters: map[string]int64{Requests: 1},
		rates:    map[string]Rate{RequestsFailed: {Fails: 1}},
		trends:   map[string][3]int64{ResponseTime: {1, 10, 10}, Rows: {1, 0, 0}},
	}, {
		name: "failed op records no rows nor latency",
		record: func(r *Recorder, _ *Aggregator) {
			r.Op(sec, 900, -1, 400, 5, "timeout")
			r.Op(sec, 800, -1, 400, 5, "timeout")
			r.Op(sec, 100, -1, 50, 1, "")
		},
		counters: map[string]int64{Requests: 3, Errors: 2},
		rates:    map[string]Rate{RequestsFailed: {Passes: 2, Fails: 1}},
		trends:   map[string][3]int64{ResponseTime: {3, 100, 900}, Rows: {1, 1, 1}, Latency: {1, 50, 50}},
		errors:   map[string]int64{"timeout": 2},
	}, {
		name: "samples before the warm-up end are discarded",
		warm: 2 * sec,
		record: func(r *Recorder, _ *Aggregator) {
			r.Op(sec, 5, -1, -1, 1, "")
			r.Error(sec, "early")
			r.Iteration(sec, time.Millisecond)
			r.Add(IDDropped, sec, 4)
			r.Rate(IDChecks, sec, true)
			r.Op(2*sec, 7, -1, -1, 1, "")
			r.Iteration(3*sec, 2*time.Millisecond)
		},
		counters: map[string]int64{Requests: 1, Iterations: 1},
		rates:    map[string]Rate{RequestsFailed: {Fails: 1}},
		trends:   map[string][3]int64{ResponseTime: {1, 7, 7}, Rows: {1, 1, 1}, IterationDuration: {1, 2000, 2000}},
	}, {
		name: "iterations, counters, checks and custom metrics",
		record: func(r *Recorder, _ *Aggregator) {
			r.Iteration(sec, 1500*time.Microsecond)
			r.Iteration(4*sec, 2500*time.Microsecond)
			r.Add(IDDropped, sec, 2)
			r.Add(IDDropped, 9*sec, 5)
			r.Add(custom, sec, 1024)
			r.Rate(IDChecks, sec, true)
			r.Rate(IDChecks, sec, true)
			r.Rate(IDChecks, 2*sec, false)
			r.Trend(size, sec, 64)
			r.Trend(size, sec, -3) // clamped to 0
		},
		counters: map[string]int64{Iterations: 2, DroppedIterations: 7, "bytes_out": 1024},
		rates:    map[string]Rate{Checks: {Passes: 2, Fails: 1}},
		trends:   map[string][3]int64{IterationDuration: {2, 1500, 2500}, "msg_size": {2, 0, 64}},
	}, {
		name: "errors are counted by message",
		record: func(r *Recorder, _ *Aggregator) {
			r.Error(sec, "a")
			r.Error(sec, "b")
			r.Error(2*sec, "a")
		},
		counters: map[string]int64{Errors: 3},
		errors:   map[string]int64{"a": 2, "b": 1},
	}, {
		name: "gauges keep the last value and the extremes",
		record: func(_ *Recorder, a *Aggregator) {
			for _, v := range []float64{3, 7, 2, 5} {
				a.SetGauge(0, IDVUs, v)
			}
			a.SetGauge(0, IDVUsMax, 10)
		},
		gauges: map[string]Gauge{VUs: {Value: 5, Min: 2, Max: 7}, VUsMax: {Value: 10, Min: 10, Max: 10}},
	}, {
		name: "values above an hour are clamped, not lost",
		record: func(r *Recorder, _ *Aggregator) {
			r.Trend(IDResponseTime, sec, 2*HistHighest)
		},
		trends: map[string][3]int64{ResponseTime: {1, HistHighest, HistHighest}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := run(t, reg, tc.warm, tc.record)
			nonZero := map[string]int64{}
			for k, v := range sc.Counters {
				if v != 0 {
					nonZero[k] = v
				}
			}
			if tc.counters == nil {
				tc.counters = map[string]int64{}
			}
			if !reflect.DeepEqual(nonZero, tc.counters) {
				t.Errorf("counters %v, want %v", nonZero, tc.counters)
			}
			rates := map[string]Rate{}
			for k, v := range sc.Rates {
				rates[k] = *v
			}
			if tc.rates == nil {
				tc.rates = map[string]Rate{}
			}
			if !reflect.DeepEqual(rates, tc.rates) {
				t.Errorf("rates %v, want %v", rates, tc.rates)
			}
			got := histCounts(sc)
			if tc.trends == nil {
				tc.trends = map[string][3]int64{}
			}
			for name, want := range tc.trends {
				g := got[name]
				// HDR keeps 3 significant digits: compare min and
				// max at the histogram's resolution.
				h := metric.NewHistogram()
				if g[0] != want[0] || !h.ValuesAreEquivalent(g[1], want[1]) || !h.ValuesAreEquivalent(g[2], want[2]) {
					t.Errorf("trend %s: count/min/max %v, want %v", name, g, want)
				}
			}
			if len(got) != len(tc.trends) {
				t.Errorf("trends %v, want %v", got, tc.trends)
			}
			if tc.errors == nil {
				tc.errors = map[string]int64{}
			}
			if !reflect.DeepEqual(sc.Errors, tc.errors) {
				t.Errorf("errors %v, want %v", sc.Errors, tc.errors)
			}
			gauges := map[string]Gauge{}
			for k, v := range sc.Gauges {
				gauges[k] = *v
			}
			if tc.gauges == nil {
				tc.gauges = map[string]Gauge{}
			}
			if !reflect.DeepEqual(gauges, tc.gauges) {
				t.Errorf("gauges %v, want %v", gauges, tc.gauges)
			}
			for name := range sc.Trends {
				if sc.Units[name] != reg.Def(mustLookup(t, reg, name)).Unit {
					t.Errorf("unit of %s: %v", name, sc.Units[name])
				}
			}
		})
	}
}

func mustLookup(t *testing.T, reg *Registry, name string) ID {
	t.Helper()
	id, ok := reg.Lookup(name)
	if !ok {
		t.Fatalf("no metric %q", name)
	}
	return id
}

// The samples of N recorders (VUs) of one aggregator merge into exactly the
// histograms and totals of one recorder that saw them all, whatever the
// split and the batch boundaries.
func TestRecordersMergeExactly(t *testing.T) {
	for _, n := range []int{1, 2, 7, 64} {
		rng := rand.New(rand.NewPCG(uint64(n), 9))
		type op struct {
			at           time.Duration
			rt, lat, row int64
			err          string
		}
		ops := make([]op, 30_000)
		for i := range ops {
			ops[i] = op{at: time.Duration(i) * 200 * time.Microsecond, rt: int64(rng.ExpFloat64() * 3000),
				lat: int64(rng.IntN(5000)) - 10, row: int64(rng.IntN(20)), err: errMsg(i)}
		}
		whole := run(t, NewRegistry(), 0, func(r *Recorder, _ *Aggregator) {
			for _, o := range ops {
				r.Op(o.at, o.rt, o.rt/2, o.lat, o.row, o.err)
				r.Iteration(o.at, time.Duration(o.rt)*time.Microsecond)
			}
		})
		a := NewAggregator(NewRegistry(), ClockAt(time.Now().Add(time.Hour)), []string{"s"})
		go a.Run()
		var wg sync.WaitGroup
		for v := 0; v < n; v++ {
			wg.Add(1)
			go func(v int) {
				defer wg.Done()
				r := a.Recorder(0, 0)
				for i := v; i < len(ops); i += n {
					o := ops[i]
					r.Op(o.at, o.rt, o.rt/2, o.lat, o.row, o.err)
					r.Iteration(o.at, time.Duration(o.rt)*time.Microsecond)
				}
				r.Flush()
			}(v)
		}
		wg.Wait()
		a.Close()
		split := a.Snapshot().Scenarios[0]
		if len(whole.Trends) != 5 || len(split.Trends) != len(whole.Trends) {
			t.Fatalf("n=%d: trends %v vs %v", n, histCounts(whole), histCounts(split))
		}
		for name, w := range whole.Trends {
			if !w.Hist.Equals(split.Trends[name].Hist) {
				t.Errorf("n=%d: %s differs: %+v vs %+v", n, name, w.Stats(), split.Trends[name].Stats())
			}
		}
		if !reflect.DeepEqual(whole.Counters, split.Counters) || !reflect.DeepEqual(whole.Errors, split.Errors) ||
			*whole.Rates[RequestsFailed] != *split.Rates[RequestsFailed] {
			t.Errorf("n=%d: totals %v %v %v vs %v %v %v", n, whole.Counters, whole.Errors, whole.Rates[RequestsFailed],
				split.Counters, split.Errors, split.Rates[RequestsFailed])
		}
		if whole.Counters[Requests] != int64(len(ops)) || whole.Trends[ResponseTime].Hist.TotalCount() != int64(len(ops)) {
			t.Errorf("n=%d: %d requests, %d response times, want %d", n, whole.Counters[Requests],
				whole.Trends[ResponseTime].Hist.TotalCount(), len(ops))
		}
	}
}

// k6's HTTP metrics: phases that are zero are counted in the zero bucket,
// expected responses feed the expected_response submetric, and
// http_req_failed counts failures as passes.
func TestRecorderHTTP(t *testing.T) {
	reg := NewRegistry()
	ids, err := RegisterHTTP(reg)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := RegisterHTTP(reg); err != nil || again != ids {
		t.Fatalf("RegisterHTTP is not idempotent: %+v, %v", again, err)
	}
	ms := time.Millisecond
	sc := run(t, reg, 0, func(r *Recorder, _ *Aggregator) {
		r.HTTP(time.Second, &ids, &HTTPSample{Blocked: 3 * ms, Connecting: 2 * ms, Sending: ms, Waiting: 5 * ms,
			Receiving: 2 * ms, Sent: 100, Received: 1000, Status: 200, Expected: true})
		r.HTTP(time.Second, &ids, &HTTPSample{Waiting: 4 * ms, Sent: 90, Received: 10, Status: 503})
	})
	if sc.Counters[HTTPReqs] != 2 || sc.Counters[DataSent] != 190 || sc.Counters[DataReceived] != 1010 {
		t.Errorf("counters %v", sc.Counters)
	}
	if r := sc.Rates[HTTPReqFailed]; r == nil || *r != (Rate{Passes: 1, Fails: 1}) {
		t.Errorf("http_req_failed %+v", r)
	}
	if sc.Units[DataSent] != UnitBytes {
		t.Errorf("data_sent unit %v", sc.Units[DataSent])
	}
	want := map[string][3]int64{
		HTTPReqDuration: {2, 4000, 8000}, HTTPReqDurationExp: {1, 8000, 8000},
		HTTPReqWaiting: {2, 4000, 5000}, HTTPReqBlocked: {2, 0, 3000}, HTTPReqConnecting: {2, 0, 2000},
		HTTPReqTLS: {2, 0, 0}, HTTPReqSending: {2, 0, 1000}, HTTPReqReceiving: {2, 0, 2000},
	}
	got := histCounts(sc)
	h := metric.NewHistogram()
	for name, w := range want {
		g := got[name]
		if g[0] != w[0] || !h.ValuesAreEquivalent(g[1], w[1]) || !h.ValuesAreEquivalent(g[2], w[2]) {
			t.Errorf("%s: %v, want %v", name, g, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("trends %v", got)
	}
}

// Measurements left in a Pending by many goroutines arrive exactly once.
func TestPendingConcurrent(t *testing.T) {
	reg := NewRegistry()
	c := reg.MustAdd(Def{Name: "consumed", Kind: KindCounter, Unit: UnitNone})
	tr := reg.MustAdd(Def{Name: "lag", Kind: KindTrend, Unit: UnitMicros})
	var p Pending
	sc := run(t, reg, 0, func(r *Recorder, _ *Aggregator) {
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 1000; i++ {
					p.Add(c, 2)
					p.Trend(tr, int64(i))
					if i%100 == 0 {
						p.Error("lost")
					}
				}
			}()
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		for at := time.Duration(0); ; at += time.Millisecond {
			select {
			case <-done:
				p.Drain(r, at)
				return
			default:
				p.Drain(r, at)
			}
		}
	})
	if sc.Counters["consumed"] != 16000 || sc.Trends["lag"].Hist.TotalCount() != 8000 ||
		sc.Errors["lost"] != 80 || sc.Counters[Errors] != 80 {
		t.Errorf("consumed %d, lag n=%d, errors %v / %d", sc.Counters["consumed"],
			sc.Trends["lag"].Hist.TotalCount(), sc.Errors, sc.Counters[Errors])
	}
	if got := sc.Trends["lag"].Hist.Max(); got != 999 {
		t.Errorf("lag max %d, want 999", got)
	}
}
