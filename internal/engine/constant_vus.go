package engine

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/executor"
)

// runConstantVUs loops e.VUs VUs for e.Duration.
func runConstantVUs(ctx context.Context, e executor.ConstantVUsConfig, r *runner, start time.Duration) error {
	vus, err := r.newVUs(ctx, e.VUs)
	if err != nil {
		return err
	}
	loop, hard, cancel := r.stopContexts(ctx, e.Duration)
	defer cancel()
	// The duration counts from when the VUs exist, as the stop contexts
	// do: allocating a million VUs must not eat the measured time.
	end := max(start, r.deps.Clock.Now()) + e.Duration
	r.runClosed(vus, loop, hard, func(_ int, now time.Duration) bool { return now < end })
	return nil
}
