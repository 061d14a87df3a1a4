package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// Backoff is the per-VU wait after connection failures (executor.Backoff).
type Backoff = executor.Backoff

// Defaults of Backoff.
const (
	DefaultBackoffMin = executor.DefaultBackoffMin
	DefaultBackoffMax = executor.DefaultBackoffMax
)

// backoffWait is how long v waits after a connection failure (failed)
// before its next iteration, growing with every failure in a row; after a
// success it resets v's wait and returns 0.
func (r *runner) backoffWait(v *vuState, failed bool) time.Duration {
	b := r.deps.Backoff.WithDefaults()
	if !failed || b.Min < 0 {
		v.wait = 0
		return 0
	}
	if v.wait == 0 {
		v.wait = b.Min
	} else {
		v.wait = min(2*v.wait, b.Max)
	}
	return v.wait
}

// backOff waits d (interrupted by ctx) after a connection failure at now
// and returns the time after the wait.
func (r *runner) backOff(ctx context.Context, d, now time.Duration) time.Duration {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	after := r.deps.Clock.Now()
	r.countBackoff(now, after)
	return after
}

// countBackoff counts one wait from now to after.
func (r *runner) countBackoff(now, after time.Duration) {
	r.backoffs.Add(1)
	r.backoffTime.Add(int64(after - now))
}

// backoffNote is the scenario's UnreachableNote when its VUs spent more
// than metrics.FailureThreshold of their time (allocated VUs × elapsed)
// backing off; "" otherwise.
func (r *runner) backoffNote(elapsed time.Duration) string {
	n, waited := r.backoffs.Load(), time.Duration(r.backoffTime.Load())
	vuTime := float64(r.allocated.Load()) * elapsed.Seconds()
	if n == 0 || vuTime <= 0 {
		return ""
	}
	share := waited.Seconds() / vuTime
	if share <= metrics.FailureThreshold {
		return ""
	}
	// The waits are counted, not the failures: those are the errors.
	return fmt.Sprintf("%s VUs spent %.0f%% of their time (%.1f VU-seconds) waiting to retry after connection failures (%d waits, --backoff)",
		metrics.UnreachableNote, 100*min(share, 1), waited.Seconds(), n)
}
