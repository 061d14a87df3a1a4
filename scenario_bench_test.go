package stampede

import (
	"context"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// noopScenario records one empty request per iteration through the public
// Iteration handle, as builtin.Noop does through the engine's.
type noopScenario struct{}

func (noopScenario) NewVU(context.Context, int) (VU, error) { return noopScenario{}, nil }
func (noopScenario) Close() error                           { return nil }
func (noopScenario) Iterate(_ context.Context, it Iteration) error {
	it.RecordRequest("noop", it.Started(), Outcome{})
	return nil
}

// BenchmarkPublicNoopIteration is engine.BenchmarkNoopIteration for a
// scenario written against the public API: the adapter's cost per
// iteration is the difference between the two.
func BenchmarkPublicNoopIteration(b *testing.B) {
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"noop"})
	go agg.Run()
	cfg := engine.Config{Executor: engine.SharedIterations, VUs: 50, Iterations: int64(max(b.N, 50)), MaxDuration: time.Hour}.Defaults()
	b.ReportAllocs()
	b.ResetTimer()
	plan := engine.Plan{Scenarios: []engine.Spec{{Name: "noop", Scenario: AsRunnable(noopScenario{}), Config: cfg}}}
	if _, err := engine.Run(context.Background(), plan, engine.Deps{Agg: agg, Clock: clock}); err != nil {
		b.Fatal(err)
	}
	agg.Close()
	b.StopTimer()
	if got := agg.Snapshot().Scenarios[0].Counters[metrics.Iterations]; got != cfg.Iterations {
		b.Fatalf("iterations = %d, want %d", got, cfg.Iterations)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "it/s")
}
