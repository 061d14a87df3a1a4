package engine

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

// starterScenario is a sleepScenario that is also a Starter: it records
// when it was started and checks that no VU iterates before that.
type starterScenario struct {
	sleepScenario
	mu        sync.Mutex
	calls     int
	at        time.Duration
	vusAtCall int64
	early     int // iterations before Started
	first     time.Duration
	iters     int64
}

func (s *starterScenario) Started(ctx context.Context, at time.Duration, clock metrics.Clock) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.at = at
	s.vusAtCall = s.vus.Load()
	if ctx.Err() != nil {
		s.early = -1000 // marks a dead context
	}
	if now := clock.Now(); now < at {
		s.early = -2000 // marks a clock other than the run's
	}
}

func (s *starterScenario) NewVU(ctx context.Context, id int) (vu.VU, error) {
	u, err := s.sleepScenario.NewVU(ctx, id)
	if err != nil {
		return nil, err
	}
	return &starterVU{VU: u, s: s}, nil
}

type starterVU struct {
	vu.VU
	s *starterScenario
}

func (v *starterVU) Iterate(ctx context.Context, it *vu.Iter) error {
	v.s.mu.Lock()
	if v.s.calls == 0 {
		v.s.early++
	}
	if v.s.iters == 0 || it.Start < v.s.first {
		v.s.first = it.Start
	}
	v.s.iters++
	v.s.mu.Unlock()
	return v.VU.Iterate(ctx, it)
}

// Every executor calls Started once, after its initial VUs exist and
// before the first iteration.
func TestStarterCalledOnceBeforeIterations(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     Config
		initVUs int64
	}{
		{"constant-vus", Config{Executor: ConstantVUs, VUs: 4, Duration: 500 * time.Millisecond}, 4},
		{"per-vu-iterations", Config{Executor: PerVUIterations, VUs: 3, Iterations: 5}, 3},
		{"shared-iterations", Config{Executor: SharedIterations, VUs: 2, Iterations: 9}, 2},
		{"constant-arrival-rate", Config{Executor: ConstantArrivalRate, Rate: 20, Duration: time.Second, PreAllocatedVUs: 2, MaxVUs: 4}, 2},
		{"ramping-arrival-rate", Config{Executor: RampingArrivalRate, Stages: []Stage{{Duration: time.Second, Target: 20}}, PreAllocatedVUs: 3, MaxVUs: 3}, 3},
		{"ramping-vus", Config{Executor: RampingVUs, StartVUs: 1, Stages: []Stage{{Duration: time.Second, Target: 5}}}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sc := &starterScenario{sleepScenario: sleepScenario{d: 10 * time.Millisecond}}
				runPlan(t, t.Context(), sc, tc.cfg)
				switch {
				case sc.calls != 1:
					t.Errorf("Started called %d times, want once", sc.calls)
				case sc.early == -1000:
					t.Errorf("Started got a context that had already ended")
				case sc.early == -2000:
					t.Errorf("Started got a clock behind its start offset")
				case sc.early != 0:
					t.Errorf("%d iterations ran before Started", sc.early)
				case sc.iters == 0:
					t.Errorf("no iteration ran")
				case sc.first < sc.at:
					t.Errorf("first iteration at %v, before Started at %v", sc.first, sc.at)
				case sc.vusAtCall != tc.initVUs:
					t.Errorf("%d VUs existed at Started, want the %d initial ones", sc.vusAtCall, tc.initVUs)
				}
			})
		})
	}
}

// A scenario whose VUs cannot connect never starts.
func TestStarterNotCalledWithoutVUs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reg := metrics.NewRegistry()
		clock := metrics.NewClock()
		agg := metrics.NewAggregator(reg, clock, []string{"s"})
		go agg.Run()
		defer agg.Close()
		sc := &starterScenario{sleepScenario: sleepScenario{newErr: errors.New("connection refused")}}
		_, err := Run(t.Context(), Plan{Scenarios: []Spec{{Name: "s", Scenario: sc, Config: Config{VUs: 2, Duration: time.Second}.Defaults()}}}, Deps{Agg: agg, Clock: clock})
		if err == nil {
			t.Fatal("want error")
		}
		if sc.calls != 0 {
			t.Errorf("Started called %d times for a scenario without VUs", sc.calls)
		}
	})
}
