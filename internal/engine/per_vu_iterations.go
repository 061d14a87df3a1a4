package engine

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/executor"
)

// runPerVUIterations lets each of e.VUs VUs run e.Iterations iterations, within
// e.MaxDuration.
func runPerVUIterations(ctx context.Context, e executor.PerVUIterationsConfig, r *runner, _ time.Duration) error {
	vus, err := r.newVUs(ctx, e.VUs)
	if err != nil {
		return err
	}
	loop, hard, cancel := r.stopContexts(ctx, e.MaxDuration)
	defer cancel()
	done := make([]int64, len(vus)) // each VU's iterations so far (its own slot)
	r.runClosed(vus, loop, hard, func(i int, _ time.Duration) bool {
		done[i]++
		return done[i] <= e.Iterations
	})
	return nil
}
