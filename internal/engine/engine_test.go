package engine

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

// sleepScenario is a VU that takes d per iteration and records one request.
type sleepScenario struct {
	d      time.Duration
	vus    atomic.Int64
	newErr error
}

func (s *sleepScenario) NewVU(ctx context.Context, id int) (vu.VU, error) {
	if s.newErr != nil {
		return nil, s.newErr
	}
	s.vus.Add(1)
	return &sleepVU{s: s}, nil
}

type sleepVU struct{ s *sleepScenario }

func (v *sleepVU) Iterate(ctx context.Context, it *vu.Iter) error {
	start := it.Now()
	var res driver.Result
	select {
	case <-time.After(v.s.d):
		res.Rows = 1
	case <-ctx.Done():
		res.Err = ctx.Err()
	}
	it.Request("sleep", start, res)
	return nil
}
func (v *sleepVU) Close() error { return nil }

// runPlan runs one scenario with cfg inside the caller's synctest bubble.
func runPlan(t *testing.T, ctx context.Context, sc vu.Scenario, cfg Config) *metrics.ScenarioSnapshot {
	t.Helper()
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"s"})
	go agg.Run()
	_, err := Run(ctx, Plan{Scenarios: []Spec{{Name: "s", Scenario: sc, Config: cfg.Defaults()}}}, Deps{Agg: agg, Clock: clock, FakeTime: true})
	if err != nil {
		t.Fatal(err)
	}
	agg.Close()
	return agg.Snapshot().Scenarios[0]
}

func TestExecutors(t *testing.T) {
	tests := []struct {
		name       string
		cfg        Config
		iterDur    time.Duration
		wantIters  int64
		wantDrop   int64
		wantMaxVUs float64
	}{
		{"constant-vus", Config{Executor: ConstantVUs, VUs: 10, Duration: time.Second}, 100 * time.Millisecond, 100, 0, 10},
		// The first 400 ms are warm-up: the 3 iterations of each VU that end
		// before it are not counted.
		{"warm-up excluded", Config{Executor: ConstantVUs, VUs: 10, Duration: time.Second, Warmup: 400 * time.Millisecond}, 100 * time.Millisecond, 70, 0, 10},
		{"per-vu-iterations", Config{Executor: PerVUIterations, VUs: 3, Iterations: 7}, 10 * time.Millisecond, 21, 0, 3},
		{"shared-iterations", Config{Executor: SharedIterations, VUs: 4, Iterations: 10}, 10 * time.Millisecond, 10, 0, 4},
		{"constant-arrival-rate", Config{Executor: ConstantArrivalRate, Rate: 50, Duration: 2 * time.Second, PreAllocatedVUs: 5, MaxVUs: 10}, 50 * time.Millisecond, 100, 0, 5},
		// Iterations of 95 ms, not 100: a VU that ended at the very instant
		// of a slot raced the dispatcher for it (19 or 20 iterations under
		// load); 5 ms before, it is idle when the slot comes.
		{"arrival-rate drops when VUs run out", Config{Executor: ConstantArrivalRate, Rate: 100, Duration: time.Second, PreAllocatedVUs: 2, MaxVUs: 2}, 95 * time.Millisecond, 20, 80, 2},
		{"ramping-arrival-rate", Config{Executor: RampingArrivalRate, StartRate: 0, Stages: []Stage{{Duration: time.Second, Target: 100}, {Duration: time.Second, Target: 100}}, PreAllocatedVUs: 20, MaxVUs: 20}, 10 * time.Millisecond, 150, 0, 20},
		// 0→10 VUs over 1s then 10 for 1s: on average 5 then 10 VUs at 10 it/s each.
		{"ramping-vus", Config{Executor: RampingVUs, StartVUs: 0, Stages: []Stage{{Duration: time.Second, Target: 10}, {Duration: time.Second, Target: 10}}}, 100 * time.Millisecond, 145, 0, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				snap := runPlan(t, t.Context(), &sleepScenario{d: tc.iterDur}, tc.cfg)
				got := snap.Counters[metrics.Iterations]
				tol := tc.wantIters / 20 // ramping rounds VU counts on 50 ms ticks
				if tc.cfg.Executor != RampingVUs {
					tol = 0 // the fake clock makes every other executor exact
				}
				if got < tc.wantIters-tol || got > tc.wantIters+tol {
					t.Errorf("iterations = %d, want %d±%d", got, tc.wantIters, tol)
				}
				if d := snap.Counters[metrics.DroppedIterations]; d != tc.wantDrop {
					t.Errorf("dropped = %d, want %d", d, tc.wantDrop)
				}
				if g := snap.Gauges[metrics.VUsMax]; g == nil || g.Max != tc.wantMaxVUs {
					t.Errorf("vus_max = %+v, want max %v", g, tc.wantMaxVUs)
				}
				if n := snap.Trends[metrics.ResponseTime].Hist.TotalCount(); n != got {
					t.Errorf("responseTime count %d != iterations %d", n, got)
				}
			})
		})
	}
}

// A target that stalls for 1 s under a constant arrival rate must show the
// stall in p99 of responseTime (measured from the intended start), even
// though each request itself is fast once it is served.
func TestCoordinatedOmission(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sc := &stallScenario{}
		snap := runPlan(t, t.Context(), sc, Config{Executor: ConstantArrivalRate, Rate: 100, Duration: 5 * time.Second, PreAllocatedVUs: 1, MaxVUs: 200})
		rt := snap.Trends[metrics.ResponseTime].Stats()
		st := snap.Trends[metrics.ServiceTime].Stats()
		if rt.P99 < 500_000 {
			t.Errorf("responseTime p99 = %vµs, want ≥ 500ms: the stall is hidden", rt.P99)
		}
		if st.P99 > rt.P99 || st.Avg > rt.Avg {
			t.Errorf("service_time %+v exceeds responseTime %+v", st, rt)
		}
		if d := snap.Counters[metrics.DroppedIterations]; d != 0 {
			t.Errorf("dropped %d iterations, want 0 with maxVUs 200", d)
		}
	})
}

// The same stall under a closed model with one VU hides in p99: the VU
// simply did not send while the target stalled. This is why arrival-rate
// executors exist.
func TestClosedModelHidesStall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap := runPlan(t, t.Context(), &stallScenario{}, Config{Executor: ConstantVUs, VUs: 1, Duration: 5 * time.Second})
		if p99 := snap.Trends[metrics.ResponseTime].Stats().P99; p99 > 2_000 {
			t.Errorf("closed-model p99 = %vµs; expected the stall to hide", p99)
		}
	})
}

// stallScenario answers in 1ms, except between t=2s and t=3s, when the
// target stalls: requests sent then are answered at t=3s.
type stallScenario struct{}

func (s *stallScenario) NewVU(context.Context, int) (vu.VU, error) { return s, nil }
func (s *stallScenario) Close() error                              { return nil }
func (s *stallScenario) Iterate(ctx context.Context, it *vu.Iter) error {
	start := it.Now()
	d := time.Millisecond
	if start >= 2*time.Second && start < 3*time.Second {
		d = 3*time.Second - start
	}
	time.Sleep(d)
	it.Request("q", start, driver.Result{})
	return nil
}

func TestInterruptStopsQuickly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(500*time.Millisecond, cancel)
		start := time.Now()
		snap := runPlan(t, ctx, &sleepScenario{d: time.Hour}, Config{Executor: ConstantVUs, VUs: 5, Duration: time.Minute})
		if el := time.Since(start); el > time.Second {
			t.Errorf("stop took %v", el)
		}
		if !snap.Interrupted {
			t.Error("snapshot not marked interrupted")
		}
		if n := snap.Counters[metrics.Errors]; n != 0 {
			t.Errorf("the stop was counted as %d errors", n)
		}
	})
}

func TestVUErrorEndsRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reg := metrics.NewRegistry()
		clock := metrics.NewClock()
		agg := metrics.NewAggregator(reg, clock, []string{"s"})
		go agg.Run()
		defer agg.Close()
		sc := &sleepScenario{newErr: errors.New("connection refused")}
		_, err := Run(t.Context(), Plan{Scenarios: []Spec{{Name: "s", Scenario: sc, Config: Config{VUs: 2, Duration: time.Second}.Defaults()}}}, Deps{Agg: agg, Clock: clock})
		if err == nil {
			t.Fatal("want error")
		}
	})
}

func TestBadConfig(t *testing.T) {
	for _, c := range []Config{
		{Executor: "nope"},
		{Executor: ConstantVUs, VUs: 1},
		{Executor: RampingVUs},
		{Executor: ConstantArrivalRate, Duration: time.Second},
		{Executor: SharedIterations, VUs: 10, Iterations: 5},
	} {
		if err := c.Defaults().Validate(); err == nil {
			t.Errorf("%+v: want error", c)
		}
	}
}

// Cancelling a run whose many VUs all wait on the run's context must end
// it: VUs whose iterations then return at once must not spin (they did, and
// 100,000 spinning goroutines starved the one cancelling the loop).
func TestManyBlockedVUsStop(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 goroutines")
	}
	const vus = 100_000
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"idle"})
	go agg.Run()
	defer agg.Close()
	ctx, cancel := context.WithCancel(t.Context())
	sc := blockScenario{started: make(chan struct{}, vus)}
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Plan{Scenarios: []Spec{{Name: "idle", Scenario: sc, Config: Config{VUs: vus, Duration: time.Hour}.Defaults()}}}, Deps{Agg: agg, Clock: clock})
		done <- err
	}()
	for range vus {
		<-sc.started
	}
	runtime.GC() // as BenchmarkIdleVUMemory does: it made the hang certain
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the run did not stop within a minute of being cancelled")
	}
}

// noterScenario finishes its note in Teardown, as the Kafka scenarios do.
type noterScenario struct {
	sleepScenario
	note string
}

func (s *noterScenario) Teardown(context.Context) error { s.note = "tally: done"; return nil }
func (s *noterScenario) Notes() []string                { return []string{s.note} }

func TestNotesAfterTeardown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap := runPlan(t, t.Context(), &noterScenario{sleepScenario: sleepScenario{d: time.Millisecond}}, Config{Executor: SharedIterations, VUs: 1, Iterations: 3})
		if len(snap.Notes) != 1 || snap.Notes[0] != "tally: done" {
			t.Errorf("notes = %q, want the note written in Teardown", snap.Notes)
		}
	})
}

// Rates divide by the measured time: the warm-up is recorded in the
// snapshot and left out of MeasuredDuration.
func TestWarmupInSnapshot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap := runPlan(t, t.Context(), &sleepScenario{d: 100 * time.Millisecond}, Config{Executor: ConstantVUs, VUs: 1, Duration: 2 * time.Second, Warmup: time.Second})
		if snap.Warmup != time.Second || snap.MeasuredDuration() != time.Second {
			t.Errorf("warmup %v, measured %v", snap.Warmup, snap.MeasuredDuration())
		}
		if n := snap.Counters[metrics.Iterations]; n != 11 { // those ending at 1.0 s … 2.0 s
			t.Errorf("iterations = %d", n)
		}
	})
}

// measuredScenario records one request in setup and one in teardown.
type measuredScenario struct{ sleepScenario }

func (s *measuredScenario) SetupMeasured(ctx context.Context, it *vu.Iter) error {
	start := it.Now()
	time.Sleep(50 * time.Millisecond)
	it.Request("setup", start, driver.Result{Rows: 1})
	return nil
}

func (s *measuredScenario) TeardownMeasured(ctx context.Context, it *vu.Iter) error {
	it.Request("teardown", it.Now(), driver.Result{Err: errors.New("teardown failed")})
	return nil
}

// A measured setup and teardown count in the scenario's requests and
// errors, timed from their own start, but are no iterations.
func TestMeasuredSetupTeardown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap := runPlan(t, t.Context(), &measuredScenario{sleepScenario{d: 10 * time.Millisecond}}, Config{Executor: SharedIterations, VUs: 1, Iterations: 3})
		if n := snap.Counters[metrics.Iterations]; n != 3 {
			t.Errorf("iterations %d, want 3 (setup and teardown are none)", n)
		}
		if n := snap.Counters[metrics.Requests]; n != 5 {
			t.Errorf("requests %d, want 5 (3 iterations, setup, teardown)", n)
		}
		if n := snap.Counters[metrics.Errors]; n != 1 {
			t.Errorf("errors %d, want teardown's 1", n)
		}
		if max := snap.Trends[metrics.ResponseTime].Hist.Max(); max < 50000 || max > 60000 {
			t.Errorf("responseTime max %d µs, want setup's 50 ms", max)
		}
	})
}
