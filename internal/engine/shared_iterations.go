package engine

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/executor"
)

// runSharedIterations lets e.VUs VUs share e.Iterations iterations, within e.MaxDuration.
func runSharedIterations(ctx context.Context, e executor.SharedIterationsConfig, r *runner, _ time.Duration) error {
	vus, err := r.newVUs(ctx, e.VUs)
	if err != nil {
		return err
	}
	loop, hard, cancel := r.stopContexts(ctx, e.MaxDuration)
	defer cancel()
	var next atomic.Int64
	r.runClosed(vus, loop, hard, func(int, time.Duration) bool { return next.Add(1) <= e.Iterations })
	return nil
}
