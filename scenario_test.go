package stampede

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// hookScenario counts its optional hooks and its iterations.
type hookScenario struct {
	setup, started, teardown, iterations atomic.Int64
}

func (s *hookScenario) Setup(context.Context) error            { s.setup.Add(1); return nil }
func (s *hookScenario) Started(context.Context, time.Duration) { s.started.Add(1) }
func (s *hookScenario) Teardown(context.Context) error         { s.teardown.Add(1); return nil }
func (s *hookScenario) Notes() []string                        { return []string{"hooked"} }
func (s *hookScenario) NewVU(context.Context, int) (VU, error) { return s, nil }
func (s *hookScenario) Close() error                           { return nil }
func (s *hookScenario) Iterate(_ context.Context, it Iteration) error {
	if s.started.Load() != 1 {
		it.RecordCheck(false)
	}
	s.iterations.Add(1)
	it.RecordRequest("x", it.Started(), Outcome{Rows: 2})
	return nil
}

// TestAsRunnableForwardsHooks: the engine sees the public scenario's
// optional Setup, Started, Teardown and Notes.
func TestAsRunnableForwardsHooks(t *testing.T) {
	s := &hookScenario{}
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"hooks"})
	go agg.Run()
	cfg := engine.Config{Executor: engine.SharedIterations, VUs: 2, Iterations: 20}.Defaults()
	plan := engine.Plan{Scenarios: []engine.Spec{{Name: "hooks", Scenario: AsRunnable(s), Config: cfg}}}
	if _, err := engine.Run(context.Background(), plan, engine.Deps{Agg: agg, Clock: clock}); err != nil {
		t.Fatal(err)
	}
	agg.Close()
	if s.setup.Load() != 1 || s.started.Load() != 1 || s.teardown.Load() != 1 || s.iterations.Load() != 20 {
		t.Errorf("setup %d started %d teardown %d iterations %d", s.setup.Load(), s.started.Load(), s.teardown.Load(), s.iterations.Load())
	}
	sc := agg.Snapshot().Scenarios[0]
	if len(sc.Notes) != 1 || sc.Notes[0] != "hooked" {
		t.Errorf("notes %q", sc.Notes)
	}
	if tr := sc.Trends["rows"]; tr == nil || tr.Hist.TotalCount() != 20 || tr.Hist.Max() != 2 {
		t.Errorf("rows trend %+v, want 20 samples of 2", tr)
	}
	if sc.Rates["checks"] != nil && sc.Rates["checks"].Fails != 0 {
		t.Errorf("an iteration ran before Started: %+v", sc.Rates["checks"])
	}
}
