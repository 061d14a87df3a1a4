package msgload

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// Every fault operation counts, failed or not; a failure is one error
// with a stable message.
func TestFaultEvent(t *testing.T) {
	reg := metrics.NewRegistry()
	c := &Core{IDs: &IDs{}}
	RegisterPublish(reg, c.IDs, 1, "p", true)
	c.FaultEvent("churn", "create", nil, error.Error)
	c.FaultEvent("churn", "delete", errors.New("UNKNOWN_TOPIC"), error.Error)
	c.FaultEvent("kill-node", "", errors.New("node n1 did not stop"), error.Error)
	if c.ChurnOps.Load() != 3 || c.ChurnErrs.Load() != 2 {
		t.Fatalf("operations %d, errors %d: want 3 and 2", c.ChurnOps.Load(), c.ChurnErrs.Load())
	}
	agg := metrics.NewAggregator(reg, metrics.NewClock(), []string{"s"})
	go agg.Run()
	rec := agg.Recorder(0, 0)
	c.Pending.Drain(rec, 1)
	rec.Flush()
	agg.Close()
	sc := agg.Snapshot().Scenarios[0]
	if sc.Counters[MetricChurnOps] != 3 {
		t.Errorf("churn_ops %d, want 3", sc.Counters[MetricChurnOps])
	}
	for _, want := range []string{"churn: delete: UNKNOWN_TOPIC", "kill-node: node n1 did not stop"} {
		if sc.Errors[want] != 1 {
			t.Errorf("errors %v lack %q", sc.Errors, want)
		}
	}
}

// EverySecond samples once a second on the run clock whether or not any
// iteration begins (a stalled broker's seconds are samples too), and stops
// with the scenario.
func TestEverySecond(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Core{IDs: &IDs{}, Parts: []string{"p"}}
		var mu sync.Mutex
		var at []time.Duration
		c.EverySecond(func(now time.Duration) {
			mu.Lock()
			at = append(at, now)
			mu.Unlock()
		})
		c.Started(context.Background(), 0, metrics.NewClock())
		time.Sleep(3500 * time.Millisecond) // no iteration at all
		c.StopBackground()
		time.Sleep(2 * time.Second)
		mu.Lock()
		defer mu.Unlock()
		if want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}; !slices.Equal(at, want) {
			t.Errorf("samples at %v, want %v", at, want)
		}
	})
}
