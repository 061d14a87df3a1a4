package run

import (
	"fmt"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
)

// DescribeExecutor is a short human description of an executor config.
func DescribeExecutor(c engine.Config) string {
	switch c.Executor {
	case engine.ConstantVUs:
		return fmt.Sprintf("%d VUs for %s", c.VUs, c.Duration)
	case engine.RampingVUs:
		return fmt.Sprintf("ramping VUs over %d stages, %s", len(c.Stages), c.TotalDuration())
	case engine.PerVUIterations:
		return fmt.Sprintf("%d VUs × %d iterations", c.VUs, c.Iterations)
	case engine.SharedIterations:
		return fmt.Sprintf("%d iterations shared by %d VUs", c.Iterations, c.VUs)
	case engine.ConstantArrivalRate:
		return fmt.Sprintf("%d it/%s for %s (VUs %d..%d)", c.Rate, shortUnit(c.TimeUnit), c.Duration, c.PreAllocatedVUs, c.MaxVUs)
	case engine.RampingArrivalRate:
		return fmt.Sprintf("ramping rate over %d stages, %s (VUs %d..%d)", len(c.Stages), c.TotalDuration(), c.PreAllocatedVUs, c.MaxVUs)
	}
	return c.Executor
}

func shortUnit(d time.Duration) string {
	if d == time.Second {
		return "s"
	}
	return d.String()
}
