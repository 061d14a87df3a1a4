package engine

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/executor"
)

func runRampingArrivalRate(ctx context.Context, e executor.RampingArrivalRateConfig, r *runner, start time.Duration) error {
	return r.arrivalRate(ctx, start, arrivalVUs{Pre: e.PreAllocatedVUs, Max: e.MaxVUs}, e.TotalDuration(), rampingSchedule(e.StartRate, e.Stages, e.TimeUnit))
}
