package engine

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

// refusedScenario's target is a dead port: every request is refused.
type refusedScenario struct{}

func (refusedScenario) NewVU(context.Context, int) (vu.VU, error) { return refusedScenario{}, nil }
func (refusedScenario) Close() error                              { return nil }
func (refusedScenario) Iterate(_ context.Context, it *vu.Iter) error {
	it.Request("q", it.Start, driver.Result{Err: fmt.Errorf("dial tcp 127.0.0.1:1: %w", syscall.ECONNREFUSED)})
	return nil
}

func TestBackoffOnConnectionErrors(t *testing.T) {
	tests := []struct {
		name     string
		backoff  Backoff
		min, max int64 // iterations in 600 ms by 2 VUs
	}{
		// 10, 20, 40, 40, ... ms: about 16 iterations per VU.
		{"capped exponential", Backoff{Min: 10 * time.Millisecond, Max: 40 * time.Millisecond}, 10, 50},
		{"disabled spins", Backoff{Min: -1}, 1000, 1 << 62},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := metrics.NewRegistry()
			clock := metrics.NewClock()
			agg := metrics.NewAggregator(reg, clock, []string{"dead"})
			go agg.Run()
			cfg := Config{Executor: ConstantVUs, VUs: 2, Duration: 600 * time.Millisecond}.Defaults()
			if _, err := Run(t.Context(), Plan{Scenarios: []Spec{{Name: "dead", Scenario: refusedScenario{}, Config: cfg}}},
				Deps{Agg: agg, Clock: clock, Backoff: tc.backoff}); err != nil {
				t.Fatal(err)
			}
			agg.Close()
			sc := agg.Snapshot().Scenarios[0]
			n := sc.Counters[metrics.Iterations]
			if n < tc.min || n > tc.max {
				t.Errorf("%d iterations, want %d..%d", n, tc.min, tc.max)
			}
			if sc.Counters[metrics.Errors] != n {
				t.Errorf("errors %d of %d iterations", sc.Counters[metrics.Errors], n)
			}
		})
	}
}

func TestIsConnError(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("x: %w", syscall.ECONNREFUSED), true},
		{fmt.Errorf("postgres: failed to connect to `user=u`: dial error"), true},
		{fmt.Errorf("ERROR: relation does not exist (SQLSTATE 42P01)"), false},
		{nil, false},
	} {
		if got := vu.IsConnError(tc.err); got != tc.want {
			t.Errorf("IsConnError(%v) = %v", tc.err, got)
		}
	}
}
