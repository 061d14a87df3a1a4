package engine

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

// stallConnScenario is stallScenario whose new connections stall with
// the target: a VU allocated between t=2s and t=3s is ready only at 3s.
// (Under synctest the run clock starts with t0.)
type stallConnScenario struct {
	stallScenario
	t0 time.Time
}

func (s *stallConnScenario) NewVU(ctx context.Context, id int) (vu.VU, error) {
	if now := time.Since(s.t0); now >= 2*time.Second && now < 3*time.Second {
		time.Sleep(3*time.Second - now)
	}
	return &s.stallScenario, nil
}

// TestCoordinatedOmissionCorrection: under an arrival-rate executor, the
// iterations scheduled while the target stalled (t=2s..3s) start late —
// their VUs could only connect when it recovered — and each is timed from
// its intended start: responseTime reaches the stall while service_time
// (from the actual start) stays below it. TestCoordinatedOmission passes
// with the correction disabled (there the stalled requests themselves are
// slow); this one fails: responseTime max 1 ms instead of ≥ 950 ms.
func TestCoordinatedOmissionCorrection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sc := &stallConnScenario{t0: time.Now()}
		snap := runPlan(t, t.Context(), sc, Config{Executor: ConstantArrivalRate, Rate: 100, Duration: 5 * time.Second, PreAllocatedVUs: 1, MaxVUs: 200})
		rt := snap.Trends[metrics.ResponseTime].Stats()
		st := snap.Trends[metrics.ServiceTime].Stats()
		// The iteration intended at 2.01 s started at 3 s: 990 ms late.
		if rt.Max < 950_000 || rt.P99 < 900_000 {
			t.Errorf("responseTime max %vµs p99 %vµs, want ≥ 950 ms and ≥ 900 ms: the late starts are hidden", rt.Max, rt.P99)
		}
		// Only the one request sent into the stall waited in service.
		if st.P99 >= 100_000 {
			t.Errorf("service_time p99 %vµs, want < 100 ms: it must not include the wait for a VU", st.P99)
		}
		if it := snap.Counters[metrics.Iterations]; it != 500 {
			t.Errorf("%d iterations, want 500", it)
		}
	})
}

// startLag records how late, and whether early, iterations started
// against their intended start.
type startLag struct {
	mu          sync.Mutex
	early       int
	lags        []time.Duration
	earliestGap time.Duration
}

func (s *startLag) NewVU(context.Context, int) (vu.VU, error) { return s, nil }
func (s *startLag) Close() error                              { return nil }
func (s *startLag) Iterate(_ context.Context, it *vu.Iter) error {
	s.mu.Lock()
	d := it.Start - it.Intended
	if d < 0 {
		s.early++
		s.earliestGap = min(s.earliestGap, d)
	}
	s.lags = append(s.lags, d)
	s.mu.Unlock()
	it.Request("q", it.Start, driver.Result{})
	return nil
}

// TestArrivalWaitRealTime runs the production wait path (real clock, no
// fake time: preciseSleep for waits of ≤ 2 ms on a pinned thread, Go
// timers above) at 1,000 iterations/s: every iteration starts at or after
// its intended time, all of them run, and the schedule takes its second.
// Loose bounds on lateness only (the machine may be loaded). Skipping
// the wait (dispatching at once) starts iterations up to 1 ms early and
// fails it.
func TestArrivalWaitRealTime(t *testing.T) {
	if testing.Short() {
		t.Skip("one real second")
	}
	sc := &startLag{}
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"s"})
	go agg.Run()
	cfg := Config{Executor: ConstantArrivalRate, Rate: 1000, Duration: time.Second, PreAllocatedVUs: 20, MaxVUs: 200}.Defaults()
	t0 := time.Now()
	if _, err := Run(t.Context(), Plan{Scenarios: []Spec{{Name: "s", Scenario: sc, Config: cfg}}}, Deps{Agg: agg, Clock: clock}); err != nil {
		t.Fatal(err)
	}
	el := time.Since(t0)
	agg.Close()
	snap := agg.Snapshot().Scenarios[0]
	if sc.early > 0 {
		t.Errorf("%d iterations started before their intended time (earliest %v early)", sc.early, -sc.earliestGap)
	}
	if n := snap.Counters[metrics.Iterations] + snap.Counters[metrics.DroppedIterations]; n != 1000 {
		t.Errorf("%d iterations run or dropped, want the schedule's 1000", n)
	}
	if el < 999*time.Millisecond {
		t.Errorf("the schedule of 1 s took %v", el)
	}
	if len(sc.lags) > 0 {
		lags := append([]time.Duration(nil), sc.lags...)
		for i := range lags { // median by partial selection sort is enough for 1000
			for j := i + 1; j < len(lags); j++ {
				if lags[j] < lags[i] {
					lags[i], lags[j] = lags[j], lags[i]
				}
			}
			if i >= len(lags)/2 {
				break
			}
		}
		if med := lags[len(lags)/2]; med > 100*time.Millisecond {
			t.Errorf("median start lag %v, want ≤ 100 ms", med)
		}
	}
}
