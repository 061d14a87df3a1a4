package stampede

import (
	"context"
	"io"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/plugins"
	"github.com/stampede-bench/stampede/internal/run"
)

// Plan is one run: its scenarios with their executors, the result
// directory (Out) and the options of the outputs and thresholds. It is a
// value; WithSegment and ForRun return changed copies. See the fields'
// documentation for units and defaults.
type Plan = run.Plan

// PlanScenario is one scenario of a Plan: its name, the family that opens
// it and its executor.
type PlanScenario = run.Scenario

// Config is a scenario's executor, as in k6: Executor names one of the
// executors below; VUs, Duration, Iterations, Rate (per TimeUnit), Stages
// and the rest configure it. Call Defaults to fill in what is left zero.
type Config = engine.Config

// Stage is one stage of a ramping executor: ramp to Target over Duration.
type Stage = engine.Stage

// The executors of Config.Executor.
const (
	ConstantVUs         = engine.ConstantVUs
	RampingVUs          = engine.RampingVUs
	PerVUIterations     = engine.PerVUIterations
	SharedIterations    = engine.SharedIterations
	ConstantArrivalRate = engine.ConstantArrivalRate
	RampingArrivalRate  = engine.RampingArrivalRate
)

// Thresholds are a plan's pass/fail criteria, parsed once.
type Thresholds = run.Thresholds

// ParseThresholds parses k6 threshold expressions such as
// "responseTime: p(95)<200" (trend values in milliseconds).
func ParseThresholds(specs ...string) (Thresholds, error) { return run.ParseThresholds(specs) }

// Result is what Execute measured and wrote: the result directory, the
// merged snapshot of every scenario, the threshold verdicts and the
// summaries.
type Result = run.Result

// Deps are what Execute uses from the process: the target drivers, the
// environment and where messages go (nil writers discard).
type Deps = run.Deps

// DefaultDeps returns the built-in target drivers and the process
// environment, with preparation and progress messages to log (nil:
// quiet).
func DefaultDeps(log io.Writer, getenv func(string) string) Deps {
	return Deps{Drivers: plugins.Drivers(), Getenv: getenv, Log: log, Info: log, Warn: log}
}

// Execute runs plan once and writes its result directory (plan.Out, which
// must not hold a run yet): options, environment, per-request CSV,
// per-second series, snapshot, summary.json, summary.txt and report.html.
// Once measuring has started, the Result is returned even with an error,
// so that what was measured is kept. ctx stops the run early (the Result
// is then marked Interrupted). Bad input is reported before anything is
// created.
func Execute(ctx context.Context, plan Plan, deps Deps) (*Result, error) {
	if err := run.Preflight(ctx, plan, deps); err != nil {
		return nil, err
	}
	return run.Execute(ctx, plan, deps)
}
