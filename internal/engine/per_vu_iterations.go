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
	r.runEach(vus, func(v *vuState) {
		now := r.deps.Clock.Now()
		for i := int64(0); i < e.Iterations && running(loop, hard); i++ {
			now = r.iterate(hard, v, closedNext(now))
		}
	})
	return nil
}
