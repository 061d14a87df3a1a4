package stampede

import (
	"context"
	"io"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/threshold"
)

// Plan is one run, as a value: Execute runs it without changing it;
// WithSegment(seg) and ForRun(n) return changed copies. The zero value is
// not runnable: a Plan needs Scenarios and Out. Fields (zero means the
// default given):
//
//	Scenarios  []PlanScenario // in run order: name, family, executor (required)
//	Concurrent bool           // run the scenarios at the same time instead of one after another
//	Out        string         // the result directory (required); it must not hold a run yet
//
//	Target    string            // the target URL (--target); "" means each family's embedded default
//	DataDir   string            // generated data and embedded databases (--data-dir)
//	Seed      int64             // makes parameter choices reproducible (--seed)
//	Timeout   time.Duration     // bounds each operation (--timeout; 0: none)
//	Vars      map[string]string // -e KEY=VALUE pairs for {{__ENV.KEY}}
//	UserAgent string            // HTTP User-Agent ("" : "stampede")
//	InsecureSkipTLSVerify bool  // accept any TLS certificate
//	Backoff   struct{ Min, Max time.Duration } // per-VU wait after connection failures, closed model (0: 50ms to 1s; Min < 0: none)
//
//	Outputs    []OutputSpec      // every output, in start order (nil: DefaultOutputs(); Deps.Outputs makes them)
//	Tags       map[string]string // put on every output; testid defaults to the name of Out
//	TrendStats []string          // the summary's trend columns (nil: avg, min, med, max, p(90), p(95), p(99))
//	SummaryMode string           // the console summary's layout: "compact", "full" or "legacy" ("": legacy)
//
//	Thresholds   Thresholds // pass/fail criteria (ParseThresholds)
//	NoThresholds bool       // record the thresholds without judging them
//
//	Segment Segment   // this instance's part of a distributed run; set it with WithSegment, which scales the executors
//	StartAt time.Time // when the run's clock starts: Execute waits for it (instances of a distributed run share it)
//	Run, Repeat int   // run n of Repeat repeated runs (set by ForRun)
//
// Monitors, NICSpeed and Profilers (target-side sampling, --monitor and
// --profile) and CommandLine, WorkloadOptions, Sweep (recorded in
// options.json) are filled by the command line. MaxVUs() is the most VUs
// any scenario will use; Names() the scenario names in run order.
type Plan = run.Plan

// PlanScenario is one scenario of a Plan. Fields:
//
//	Name   string // in family.Scenario form, e.g. "echo.RoundTrip"; once per plan
//	Family Family // the family that opens it (from your Catalog or a …Family function)
//	Config Config // its executor; Execute fills in its defaults (Config.Defaults)
type PlanScenario = run.Scenario

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

// Result is what Execute measured and wrote. Fields:
//
//	Dir              string            // the result directory
//	Snapshot         *Snapshot         // every scenario's merged measurements
//	Interrupted      bool              // ctx stopped the run early: the results cover it until the stop
//	Thresholds       []ThresholdResult // the evaluated thresholds, in the order given
//	ThresholdsFailed bool              // a threshold failed (the command line exits 99)
//	Verdict          verdict.Run       // passed / degraded / failed by scenario, with reasons: Verdict.Status, Verdict.Failed() (the command line exits 1), Verdict.FailLine()
//	SummaryJSON      []byte            // summary.json as written (k6's --summary-export shape)
//	SummaryText      []byte            // summary.txt as written (the console summary without colour)
//	Tags             map[string]string // the run's tags, testid included
//
// WriteConsole(w, color) prints the console summary the way `stampede run`
// does: in ANSI colour when color is set, else exactly summary.txt.
type Result = run.Result

// ThresholdResult is one evaluated threshold: see threshold.Result.
type ThresholdResult = threshold.Result

// Deps are what Execute uses from the process; DefaultDeps fills them.
// Fields:
//
//	Outputs      *OutputRegistry     // makes Plan.Outputs (nil: stampede's own; Catalog.Outputs adds the program's)
//	Getenv       func(string) string // the environment: credentials, tokens (nil: none)
//	Log          io.Writer           // the families' preparation messages (nil: quiet)
//	Info         io.Writer           // the run's informational lines: outputs started, the result directory (nil: none)
//	Warn         io.Writer           // warnings (nil: none)
//	ProgressBars io.Writer           // the families' progress bars, for a terminal (nil: none)
//	StdoutTTY    bool                // stdout is a terminal (summary.json records it)
//	ConsoleWidth int                 // the terminal's width for the summary printed on it (0: 80 columns)
//
// Display (a live progress line) serves the command line.
type Deps = run.Deps

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

// Execute runs plan once and writes its result directory (plan.Out, which
// must not hold a run yet): options, environment, snapshot, summary.json,
// summary.txt and what plan.Outputs write (DefaultOutputs when nil: the
// per-request CSV, per-second series and report.html). It fills in each
// scenario's executor defaults (Config.Defaults) and the deps' outputs
// (nil: stampede's own), checks the plan before anything is created (the
// preflight of `stampede run`: thresholds, outputs, each family's target
// checks, memory), and refuses a plan one of whose scenarios its family
// did not open before the result directory exists. Once measuring has
// started, the Result is returned even with an error, so that what was
// measured is kept. ctx stops the run early (the Result is then marked
// Interrupted). Bad input is reported before anything is created.
func Execute(ctx context.Context, plan Plan, deps Deps) (*Result, error) {
	plan = withDefaults(plan)
	if deps.Outputs == nil {
		deps.Outputs = outputs.New()
	}
	if err := run.CheckMemory(plan, deps.Outputs, run.AvailableMemory()); err != nil {
		return nil, err
	}
	if err := run.Preflight(ctx, plan, deps); err != nil {
		return nil, err
	}
	return run.Execute(ctx, plan, deps)
}

// withDefaults is plan with its executors' defaults and DefaultOutputs
// when it names none; plan is not changed. A segment's executors are
// left as WithSegment scaled them (it needed their defaults already; an
// idle segment's zero VUs stay zero).
func withDefaults(plan Plan) Plan {
	if plan.Segment.Count <= 1 {
		sc := make([]PlanScenario, len(plan.Scenarios))
		for i, s := range plan.Scenarios {
			s.Config = s.Config.Defaults()
			sc[i] = s
		}
		plan.Scenarios = sc
	}
	if plan.Outputs == nil {
		plan.Outputs = DefaultOutputs()
	}
	return plan
}
