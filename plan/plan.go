// Package plan is a run as a value: a Plan (its scenarios, each with its
// family and executor, the target, the outputs, the thresholds), what
// running it uses from the process (Deps) and what it measured and wrote
// (Result). stampede.Execute runs a Plan; the command line builds one
// from its flags. The package holds no behaviour of a run beyond the
// plan's own arithmetic (segments, repeated runs).
package plan

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/family"
	"github.com/stampede-bench/stampede/output"
	"github.com/stampede-bench/stampede/threshold"
)

// Plan is everything one run needs, validated before any target is
// touched. Running it does not change it; WithSegment and ForRun return
// changed copies. The zero value is not runnable: a Plan needs Scenarios
// and Out. Zero fields mean the defaults given.
type Plan struct {
	// Scenarios in run order, each with its family and executor
	// (required).
	Scenarios []Scenario
	// Concurrent runs the scenarios at the same time instead of one after
	// another.
	Concurrent bool

	// Target is the target URL (--target); empty means each family's
	// embedded default.
	Target string
	// DataDir holds generated data and embedded databases (--data-dir).
	DataDir string
	// Seed makes parameter choices reproducible (--seed).
	Seed int64
	// Timeout bounds each operation (--timeout; 0: none).
	Timeout time.Duration
	// Backoff is the per-VU wait after connection failures (closed model;
	// zero: 50ms doubling to 1s; Min < 0: none).
	Backoff executor.Backoff
	// InsecureSkipTLSVerify accepts any TLS certificate of an https://
	// target.
	InsecureSkipTLSVerify bool
	// UserAgent is the HTTP User-Agent (empty: "stampede").
	UserAgent string
	// Vars are the -e KEY=VALUE pairs for {{__ENV.KEY}} in templates.
	Vars map[string]string

	// Out is the result directory (required). It must not hold a run yet.
	Out string
	// Outputs are every output of the run, in start order (they stop in
	// the reverse order): the request CSV, k6 streams, series.jsonl, the
	// report, live endpoints, each made from Deps.Outputs by its registry
	// name (nil: stampede.DefaultOutputs()). The result directory holds
	// options.json, env.json, snapshot.json and the summaries whatever
	// Outputs say.
	Outputs []output.Spec
	// Tags are put on every output; testid defaults to the name of Out.
	Tags map[string]string
	// TrendStats are the trend statistics of the summary (nil: avg, min,
	// med, max, p(90), p(95), p(99)).
	TrendStats []string
	// SummaryMode is the console summary's layout: "compact", "full" or
	// "legacy" ("": legacy).
	SummaryMode string

	// Thresholds are the pass/fail criteria, parsed once
	// (threshold.ParseSet).
	Thresholds threshold.Set
	// NoThresholds keeps the thresholds from being evaluated (they are
	// still checked against the metrics and recorded).
	NoThresholds bool

	// Segment is the part of a distributed run this instance runs (zero:
	// not segmented). Set it with WithSegment, which scales the executors.
	Segment executor.Segment
	// StartAt, when set, is when the run's clock starts: the run waits for
	// it, and instances of a segmented run share this time base.
	StartAt time.Time
	// Run numbers repeated runs from 1 (0: a single run); Repeat is how
	// many there are (streams get per-run file names when > 1). ForRun
	// sets them.
	Run, Repeat int

	// CommandLine is the command that made this plan, credentials
	// redacted, recorded in options.json.
	CommandLine []string
	// WorkloadOptions are the family options given, recorded in
	// options.json (no secrets).
	WorkloadOptions map[string]string
	// Sweep, for a step of a sweep, records the sweep's settings in
	// options.json.
	Sweep map[string]string
}

// Scenario is one scenario of a Plan.
type Scenario struct {
	// Name is in family.Scenario form, e.g. "echo.RoundTrip"; once per
	// plan.
	Name string
	// Family opens the scenario (one of a catalog's families).
	Family family.Family
	// Config is its executor; stampede.Execute fills in its defaults
	// (executor.Config.Defaults).
	Config executor.Config
}

// Names returns the scenario names in run order.
func (p Plan) Names() []string {
	out := make([]string, len(p.Scenarios))
	for i, s := range p.Scenarios {
		out[i] = s.Name
	}
	return out
}

// MaxVUs is the most VUs any scenario of p will use.
func (p Plan) MaxVUs() int64 {
	var m int64
	for _, s := range p.Scenarios {
		m = max(m, s.Config.MaxVUsNeeded())
	}
	return m
}

// clone is p with its own Scenarios slice.
func (p Plan) clone() Plan {
	p.Scenarios = append([]Scenario(nil), p.Scenarios...)
	return p
}

// WithSegment returns the plan of segment seg of a distributed run: its
// executors run that share of the whole (VUs, iterations, rates; see
// executor.Segment.Apply). p is not changed.
func (p Plan) WithSegment(seg executor.Segment) (Plan, error) {
	q := p.clone()
	q.Segment = seg
	if seg.IsWhole() {
		return q, nil
	}
	for i, s := range q.Scenarios {
		c, _ := seg.Apply(s.Config)
		if err := c.Validate(); err != nil { // Apply keeps executors valid
			return p, fmt.Errorf("segment %s of %s: %s", seg, s.Name, strings.ReplaceAll(err.Error(), "\n", "; "))
		}
		q.Scenarios[i].Config = c
	}
	return q, nil
}

// ForRun returns the plan of run n (from 1) of repeated runs: its result
// directory is Out/run-NN, and only the first run waits for StartAt. p is
// not changed.
func (p Plan) ForRun(n int) Plan {
	q := p.clone()
	q.Run = n
	q.Out = filepath.Join(p.Out, fmt.Sprintf("run-%02d", n))
	if n > 1 {
		q.StartAt = time.Time{}
	}
	return q
}
