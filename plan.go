package stampede

import (
	"context"
	"io"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/plan"
	"github.com/stampede-bench/stampede/threshold"
)

// Plan is one run, as a value: Execute runs it without changing it;
// WithSegment(seg) and ForRun(n) return changed copies. The zero value is
// not runnable: a Plan needs Scenarios and Out. See plan.Plan for its
// fields (zero means the default given).
type Plan = plan.Plan

// PlanScenario is one scenario of a Plan: its name, the family that opens
// it and its executor (plan.Scenario).
type PlanScenario = plan.Scenario

// Segment is one part of a distributed run, i/N (Index from 1, Count
// N): Plan.WithSegment gives the segment's plan, whose executors run that
// share of the whole (VUs, iterations, rates), and `stampede merge`
// combines the segments' result directories exactly. See docs/scale.md.
type Segment = executor.Segment

// ParseSegment reads a segment in "i/N" form, e.g. "2/4".
func ParseSegment(s string) (Segment, error) { return executor.ParseSegment(s) }

// Config is a scenario's executor, with k6's option names and defaults;
// see package executor for its fields. Execute fills in its defaults
// (Config.Defaults).
type Config = executor.Config

// Stage is one stage of a ramping executor; see package executor.
type Stage = executor.Stage

// The executors of Config.Executor.
const (
	ConstantVUs         = executor.ConstantVUs
	RampingVUs          = executor.RampingVUs
	PerVUIterations     = executor.PerVUIterations
	SharedIterations    = executor.SharedIterations
	ConstantArrivalRate = executor.ConstantArrivalRate
	RampingArrivalRate  = executor.RampingArrivalRate
)

// Thresholds are a plan's pass/fail criteria, parsed once by
// ParseThresholds (the zero value has none): see threshold.Set.
type Thresholds = threshold.Set

// ParseThresholds parses k6 threshold expressions such as
// "responseTime: p(95)<200" (trend values in milliseconds); a bad spec
// is a usage error (IsUsage).
func ParseThresholds(specs ...string) (Thresholds, error) { return run.ParseThresholds(specs) }

// Result is what Execute measured and wrote: the result directory, the
// snapshot, the thresholds, the verdict and the summaries; WriteConsole
// prints the console summary the way `stampede run` does. See
// plan.Result.
type Result = plan.Result

// ThresholdResult is one evaluated threshold: see threshold.Result.
type ThresholdResult = threshold.Result

// Deps are what Execute uses from the process: the outputs, the
// environment and where messages go (plan.Deps). DefaultDeps fills them.
type Deps = plan.Deps

// DefaultDeps returns stampede's own outputs and the process environment,
// with preparation and progress messages to log (nil: quiet). Each family
// of a plan opens its targets with drivers of its own (the built-in graph
// family SQLite, PostgreSQL and NebulaGraph, the http family HTTP), so
// that a program links only the drivers of its families.
func DefaultDeps(log io.Writer, getenv func(string) string) Deps {
	return Deps{Outputs: outputs.New(), Getenv: getenv, Log: log, Info: log, Warn: log}
}

// DefaultOutputs are the outputs of a Plan whose Outputs are nil, those
// of `stampede run` without flags: the per-request CSV (Out/requests.csv),
// the per-second series (series.jsonl) and report.html. Add
// OutputSpec{Kind: "summary-export", Arg: FILE} for k6's
// --summary-export, {Kind: "prometheus", Arg: ADDR} for a scrape
// endpoint, or any --out output such as {Kind: "json", Arg: FILE}.
func DefaultOutputs() []OutputSpec {
	return []OutputSpec{{Kind: outputs.Requests}, {Kind: outputs.Series}, {Kind: outputs.Report}}
}

// Execute runs p once and writes its result directory (p.Out, which
// must not hold a run yet): options, environment, snapshot, summary.json,
// summary.txt and what p.Outputs write (DefaultOutputs when nil: the
// per-request CSV, per-second series and report.html). It fills in each
// scenario's executor defaults (Config.Defaults) and the deps' outputs
// (nil: stampede's own), checks the plan before anything is created (the
// preflight of `stampede run`: thresholds, outputs, each family's target
// checks, memory), and refuses a plan one of whose scenarios its family
// did not open before the result directory exists. Once measuring has
// started, the Result is returned even with an error, so that what was
// measured is kept. ctx stops the run early (the Result is then marked
// Interrupted). Bad input is reported before anything is created.
func Execute(ctx context.Context, p Plan, deps Deps) (*Result, error) {
	p = withDefaults(p)
	if deps.Outputs == nil {
		deps.Outputs = outputs.New()
	}
	rp, rd := run.Plan{Plan: p}, run.Deps{Deps: deps}
	if err := run.CheckMemory(rp, deps.Outputs, run.AvailableMemory()); err != nil {
		return nil, err
	}
	if err := run.Preflight(ctx, rp, rd); err != nil {
		return nil, err
	}
	res, err := run.Execute(ctx, rp, rd)
	if res == nil {
		return nil, err
	}
	return &res.Result, err
}

// withDefaults is plan with its executors' defaults and DefaultOutputs
// when it names none; plan is not changed. A segment's executors are
// left as WithSegment scaled them (it needed their defaults already; an
// idle segment's zero VUs stay zero).
func withDefaults(p Plan) Plan {
	if p.Segment.Count <= 1 {
		sc := make([]PlanScenario, len(p.Scenarios))
		for i, s := range p.Scenarios {
			s.Config = s.Config.Defaults()
			sc[i] = s
		}
		p.Scenarios = sc
	}
	if p.Outputs == nil {
		p.Outputs = DefaultOutputs()
	}
	return p
}
