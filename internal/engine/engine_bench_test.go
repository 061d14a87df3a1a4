package engine

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

type noopScenario struct{}

func (noopScenario) NewVU(context.Context, int) (vu.VU, error) { return noopScenario{}, nil }
func (noopScenario) Close() error                              { return nil }
func (noopScenario) Iterate(_ context.Context, it *vu.Iter) error {
	it.Request("noop", it.Start, driver.Result{})
	return nil
}

// BenchmarkNoopIteration is the engine's cost per iteration with full
// recording: 50 VUs share b.N iterations of an operation that does nothing.
// Run with -cpu 1 to see the single-core figure (VUs and aggregator on one
// core).
func BenchmarkNoopIteration(b *testing.B) {
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"noop"})
	go agg.Run()
	cfg := Config{Executor: SharedIterations, VUs: 50, Iterations: int64(max(b.N, 50)), MaxDuration: time.Hour}.Defaults()
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := Run(context.Background(), Plan{Scenarios: []Spec{{Name: "noop", Scenario: noopScenario{}, Config: cfg}}}, Deps{Agg: agg, Clock: clock}); err != nil {
		b.Fatal(err)
	}
	agg.Close()
	b.StopTimer()
	if got := agg.Snapshot().Scenarios[0].Counters[metrics.Iterations]; got != cfg.Iterations {
		b.Fatalf("iterations = %d, want %d", got, cfg.Iterations)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "it/s")
}

// blockScenario's VUs wait for the end of the run: idle VUs.
type blockScenario struct{ started chan struct{} }

func (s blockScenario) NewVU(context.Context, int) (vu.VU, error) { return s, nil }
func (blockScenario) Close() error                                { return nil }
func (s blockScenario) Iterate(ctx context.Context, it *vu.Iter) error {
	select {
	case s.started <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return ctx.Err()
}

// BenchmarkIdleVUMemory reports the memory (heap + stacks) held per idle
// VU with 100,000 VUs. One op is the whole run.
func BenchmarkIdleVUMemory(b *testing.B) {
	const vus = 100_000 // the target of the issue: memory per VU at 100k
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		reg := metrics.NewRegistry()
		clock := metrics.NewClock()
		agg := metrics.NewAggregator(reg, clock, []string{"idle"})
		go agg.Run()
		ctx, cancel := context.WithCancel(context.Background())
		sc := blockScenario{started: make(chan struct{}, vus)}
		cfg := Config{Executor: ConstantVUs, VUs: vus, Duration: time.Hour}.Defaults()
		done := make(chan struct{})
		go func() {
			Run(ctx, Plan{Scenarios: []Spec{{Name: "idle", Scenario: sc, Config: cfg}}}, Deps{Agg: agg, Clock: clock})
			close(done)
		}()
		for range vus {
			<-sc.started
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		cancel()
		<-done
		agg.Close()
		used := (after.HeapInuse + after.StackInuse) - (before.HeapInuse + before.StackInuse)
		b.ReportMetric(float64(used)/vus, "B/VU")
	}
}
