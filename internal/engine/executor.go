package engine

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/executor"
)

// The executors' configuration is package executor's (public, documented
// there); these names let the engine and its importers keep theirs.
type (
	Config                    = executor.Config
	Stage                     = executor.Stage
	Executor                  = executor.Executor
	Shortcuts                 = executor.Shortcuts
	ConstantVUsConfig         = executor.ConstantVUsConfig
	RampingVUsConfig          = executor.RampingVUsConfig
	PerVUIterationsConfig     = executor.PerVUIterationsConfig
	SharedIterationsConfig    = executor.SharedIterationsConfig
	ConstantArrivalRateConfig = executor.ConstantArrivalRateConfig
	RampingArrivalRateConfig  = executor.RampingArrivalRateConfig
)

// Executor names, as in k6 (executor.ConstantVUs, ...).
const (
	ConstantVUs         = executor.ConstantVUs
	RampingVUs          = executor.RampingVUs
	PerVUIterations     = executor.PerVUIterations
	SharedIterations    = executor.SharedIterations
	ConstantArrivalRate = executor.ConstantArrivalRate
	RampingArrivalRate  = executor.RampingArrivalRate
)

// runExecutor executes the scenario of r with e from run offset start
// until e is done or ctx is cancelled.
func runExecutor(ctx context.Context, e Executor, r *runner, start time.Duration) error {
	switch e := e.(type) {
	case executor.ConstantVUsConfig:
		return runConstantVUs(ctx, e, r, start)
	case executor.RampingVUsConfig:
		return runRampingVUs(ctx, e, r, start)
	case executor.PerVUIterationsConfig:
		return runPerVUIterations(ctx, e, r, start)
	case executor.SharedIterationsConfig:
		return runSharedIterations(ctx, e, r, start)
	case executor.ConstantArrivalRateConfig:
		return runConstantArrivalRate(ctx, e, r, start)
	case executor.RampingArrivalRateConfig:
		return runRampingArrivalRate(ctx, e, r, start)
	}
	panic("engine: no run for executor " + e.Name()) // every executor of package executor is above
}
