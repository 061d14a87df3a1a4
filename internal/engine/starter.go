package engine

import (
	"context"

	"github.com/stampede-bench/stampede/vu"
)

// started tells the scenario, if it is a Starter, that its VUs start now.
func (r *runner) started(ctx context.Context) {
	if s, ok := r.spec.Scenario.(vu.Starter); ok {
		s.Started(ctx, r.deps.Clock.Now(), r.deps.Clock)
	}
}
