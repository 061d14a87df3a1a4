package engine

import (
	"context"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// Memory stays flat over a long run: nothing is kept per sample or per
// second. Ten minutes of fake time, 50 VUs at 10 ms per iteration (3M
// operations), heap measured after one and after ten minutes.
func TestMemoryFlatOverLongRun(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	synctest.Test(t, func(t *testing.T) {
		reg := metrics.NewRegistry()
		clock := metrics.NewClock()
		var points int
		agg := metrics.NewAggregator(reg, clock, []string{"soak"}, func(*metrics.Point) { points++ })
		go agg.Run()
		heap := func() uint64 {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return m.HeapInuse
		}
		var atOne uint64
		time.AfterFunc(time.Minute, func() { atOne = heap() })
		cfg := Config{Executor: ConstantVUs, VUs: 50, Duration: 10 * time.Minute}.Defaults()
		if _, err := Run(context.Background(), Plan{Scenarios: []Spec{{Name: "soak", Scenario: &sleepScenario{d: 10 * time.Millisecond}, Config: cfg}}}, Deps{Agg: agg, Clock: clock}); err != nil {
			t.Fatal(err)
		}
		atTen := heap()
		agg.Close()
		n := agg.Snapshot().Scenarios[0].Counters[metrics.Iterations]
		if n < 2_900_000 {
			t.Fatalf("only %d iterations", n)
		}
		if points < 590 {
			t.Errorf("%d per-second points, want ~600", points)
		}
		if growth := int64(atTen) - int64(atOne); growth > 4<<20 {
			t.Errorf("heap grew by %d KiB between minute 1 and minute 10 (%d → %d)", growth>>10, atOne, atTen)
		}
		t.Logf("heap in use: %d KiB at 1 min, %d KiB at 10 min, %d iterations", atOne>>10, atTen>>10, n)
	})
}
