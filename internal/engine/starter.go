package engine

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// Starter is implemented by scenarios that start background work (a
// per-second sampler, a churn schedule, a rate controller) when their VUs
// start, rather than at Setup, which runs before the VUs connect, or on
// their first iteration.
//
// The engine calls Started once per run of the scenario, from the
// executor's goroutine, after the initial VUs are allocated and before any
// of them iterates. at is the run offset of that moment and clock the
// run's clock; ctx ends with the scenario. Started must return quickly:
// longer work belongs in goroutines the scenario stops in Teardown. It is
// not called when the scenario stops (Ctrl+C, a VU that cannot connect)
// before its VUs exist.
type Starter interface {
	Started(ctx context.Context, at time.Duration, clock metrics.Clock)
}

// started tells the scenario, if it is a Starter, that its VUs start now.
func (r *runner) started(ctx context.Context) {
	if s, ok := r.spec.Scenario.(Starter); ok {
		s.Started(ctx, r.deps.Clock.Now(), r.deps.Clock)
	}
}
