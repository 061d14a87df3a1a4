package engine

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/executor"
)

func runConstantArrivalRate(ctx context.Context, e executor.ConstantArrivalRateConfig, r *runner, start time.Duration) error {
	return r.arrivalRate(ctx, start, arrivalVUs{Pre: e.PreAllocatedVUs, Max: e.MaxVUs}, e.Duration, constantSchedule(e.Rate, e.TimeUnit, e.Duration))
}
