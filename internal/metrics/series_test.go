package metrics

import (
	"reflect"
	"sync"
	"testing"
	"time"
)

// pointLog collects the points handed to an observer.
type pointLog struct {
	mu  sync.Mutex
	pts []Point
}

func (l *pointLog) observe(p *Point) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := *p
	c.Hist, c.Trends = nil, nil
	if p.Trends != nil {
		c.Counts = map[string]int64{}
		for k, v := range p.Counts {
			c.Counts[k] = v
		}
		for name, h := range p.Trends {
			c.Counts["series:"+name] = h.TotalCount()
		}
	}
	l.pts = append(l.pts, c)
}

func (l *pointLog) secs() []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []int64
	for _, p := range l.pts {
		out = append(out, p.Sec)
	}
	return out
}

// The per-second series: one point per second with samples, in order, with
// that second's exact counts, errors, rates (NAME and NAME_total), VUs, wall
// time, responseTime statistics and marked series histograms.
func TestPerSecondSeries(t *testing.T) {
	reg := NewRegistry()
	custom := reg.MustAdd(Def{Name: "wire_time", Kind: KindTrend, Unit: UnitMicros})
	reg.MarkSeries(custom)
	reg.MarkSeries(custom) // once is enough
	idle := reg.MustAdd(Def{Name: "idle_time", Kind: KindTrend, Unit: UnitMicros})
	reg.MarkSeries(idle)
	if len(reg.Series()) != 2 {
		t.Fatalf("series %v", reg.Series())
	}
	var log pointLog
	base := time.Now().Add(time.Hour) // seconds never finish on their own before Close
	a := NewAggregator(reg, ClockAt(base), []string{"a", "b"}, log.observe)
	go a.Run()
	ra, rb := a.Recorder(0, 0), a.Recorder(1, 0)
	a.SetGauge(0, IDVUs, 4)
	for i := int64(1); i <= 100; i++ { // second 0: responseTime 1..100 µs
		ra.Op(time.Duration(i)*time.Millisecond, i, -1, -1, 1, "")
	}
	ra.Op(1500*time.Millisecond, 7, -1, -1, 0, "refused")
	ra.Rate(IDChecks, 1500*time.Millisecond, true)
	ra.Rate(IDChecks, 1600*time.Millisecond, false)
	ra.Trend(custom, 1700*time.Millisecond, 12)
	ra.trendOrZero(ra.batch(1800*time.Millisecond), custom, 0)     // a zero counted by the VU: still in the second's histogram
	ra.trendOrZero(ra.batch(1800*time.Millisecond), idle, 0)       // zeros only: a histogram of zeros
	ra.trendOrZero(ra.batch(1900*time.Millisecond), idle, 0)       //
	ra.Iteration(3*time.Second+time.Millisecond, time.Millisecond) // second 2 stays empty
	ra.Trend(idle, 3*time.Second+2*time.Millisecond, 5)            // a value, in a reused second
	rb.Add(IDDropped, 5*time.Second, 3)
	ra.Flush()
	rb.Flush()
	a.Close()

	want := []Point{{
		Scenario: "a", Sec: 0, Time: base, VUs: 4,
		Counts: map[string]int64{Requests: 100, RequestsFailed + RateTotalSuffix: 100},
		RT:     PointStats{N: 100, Mean: 50.5, P50: 50, P90: 90, P95: 95, P99: 99, Max: 100},
	}, {
		Scenario: "a", Sec: 1, Time: base.Add(time.Second), VUs: 4,
		Counts: map[string]int64{Requests: 1, Errors: 1, RequestsFailed: 1, RequestsFailed + RateTotalSuffix: 1, Checks: 1, Checks + RateTotalSuffix: 2,
			"series:wire_time": 2, "series:idle_time": 2},
		Errors:     map[string]int64{"refused": 1},
		RT:         PointStats{N: 1, Mean: 7, P50: 7, P90: 7, P95: 7, P99: 7, Max: 7},
		TrendStats: map[string]PointStats{"wire_time": {N: 2, Mean: 6, P50: 0, P90: 12, P95: 12, P99: 12, Max: 12}, "idle_time": {N: 2}},
	}, {
		Scenario: "a", Sec: 3, Time: base.Add(3 * time.Second), VUs: 4,
		Counts:     map[string]int64{Iterations: 1, "series:idle_time": 1},
		TrendStats: map[string]PointStats{"idle_time": {N: 1, Mean: 5, P50: 5, P90: 5, P95: 5, P99: 5, Max: 5}},
	}, {
		Scenario: "b", Sec: 5, Time: base.Add(5 * time.Second),
		Counts: map[string]int64{DroppedIterations: 3},
	}}
	if !reflect.DeepEqual(log.pts, want) {
		t.Errorf("points:\n got %+v\nwant %+v", log.pts, want)
	}
	live := a.Live(0)
	if live != (LiveStats{Iterations: 1, Requests: 101, Errors: 1, VUs: 4, LastRate: 1}) {
		t.Errorf("live %+v", live)
	}
	if l := a.Live(1); l.Dropped != 3 {
		t.Errorf("live b %+v", l)
	}
}

// A batch that arrives after its second was handed to observers goes to
// the oldest open second: the series shifts it, the totals stay exact.
func TestLateBatch(t *testing.T) {
	var log pointLog
	base := time.Now().Add(-10 * time.Second) // seconds up to 8 finish within 250 ms
	a := NewAggregator(NewRegistry(), ClockAt(base), []string{"s"}, log.observe)
	go a.Run()
	r := a.Recorder(0, 0)
	r.Add(IDIterations, 5*time.Second, 1)
	r.Flush()
	deadline := time.Now().Add(5 * time.Second)
	for len(log.secs()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("second 5 was never finished")
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.Add(IDIterations, 3*time.Second, 10) // late: second 3 < finished 5
	r.Flush()
	a.Close()
	if got := log.secs(); !reflect.DeepEqual(got, []int64{5, 6}) {
		t.Fatalf("seconds %v, want [5 6]", got)
	}
	if n := log.pts[1].Counts[Iterations]; n != 10 {
		t.Errorf("late batch in second 6: %d iterations", n)
	}
	if n := a.Snapshot().Scenarios[0].Counters[Iterations]; n != 11 {
		t.Errorf("total %d iterations, want 11", n)
	}
}

// Mark, SetWarmup and Note reach the snapshot; the run spans its scenarios.
func TestSnapshotMarks(t *testing.T) {
	a := NewAggregator(NewRegistry(), NewClock(), []string{"a", "b"})
	go a.Run()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a.Mark(0, t0, time.Time{}, false, "constant-vus")
	a.Mark(1, t0.Add(time.Second), t0.Add(20*time.Second), true, "ramping-vus")
	a.Mark(0, time.Time{}, t0.Add(10*time.Second), false, "") // end only: start and executor kept
	a.SetWarmup(0, 4*time.Second)
	a.SetWarmup(1, time.Minute)
	a.Note(0, "in-memory target")
	a.Note(0, "in-memory target")
	a.Close()
	a.Note(0, "after close") // runs directly once closed
	s := a.Snapshot()
	if !s.Start.Equal(t0) || !s.End.Equal(t0.Add(20*time.Second)) || !s.Interrupted || s.Version != SnapshotVersion {
		t.Errorf("run %v..%v interrupted=%v version %d", s.Start, s.End, s.Interrupted, s.Version)
	}
	sa, sb := s.Scenario("a"), s.Scenario("b")
	if sa.Executor != "constant-vus" || sa.Interrupted || !reflect.DeepEqual(sa.Notes, []string{"in-memory target", "after close"}) {
		t.Errorf("a: %+v", sa)
	}
	if sa.Duration() != 10*time.Second || sa.MeasuredDuration() != 6*time.Second {
		t.Errorf("a: duration %v measured %v", sa.Duration(), sa.MeasuredDuration())
	}
	// A warm-up longer than the scenario leaves the whole duration.
	if sb.Duration() != 19*time.Second || sb.MeasuredDuration() != 19*time.Second || !sb.Interrupted {
		t.Errorf("b: duration %v measured %v interrupted %v", sb.Duration(), sb.MeasuredDuration(), sb.Interrupted)
	}
	if s.Scenario("c") != nil {
		t.Error("Scenario(c) is not nil")
	}
}
