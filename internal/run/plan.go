// Package run executes a Plan: it opens the workload families against
// their targets, runs the engine with every output attached and writes the
// result directory (options, environment, snapshot, summaries, report).
// It is what `stampede run`, `--repeat`, `stampede sweep`, segments and the
// Kubernetes worker call; the command line only translates flags into a
// Plan and displays what Execute returns.
//
// A Plan is a value: methods that change it (WithSegment, ForRun, ...)
// return a new Plan and leave the receiver as it was, and Execute never
// modifies it.
package run

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/profile"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/threshold"
)

// Plan is everything one run needs, validated before any target is
// touched. The zero value is not runnable: a Plan needs scenarios and a
// result directory.
type Plan struct {
	// Scenarios in run order, each with its family and executor.
	Scenarios []Scenario
	// Concurrent runs the scenarios at the same time instead of one after
	// another.
	Concurrent bool

	// Target is the target URL; empty means each family's embedded default.
	Target string
	// DataDir holds generated data and embedded databases.
	DataDir string
	// Seed makes parameter choices reproducible.
	Seed int64
	// Timeout bounds each operation (0: none).
	Timeout time.Duration
	// Backoff is the per-VU wait after connection failures (closed model);
	// Min < 0 disables it.
	Backoff engine.Backoff
	// InsecureSkipTLSVerify accepts any TLS certificate of an https:// target.
	InsecureSkipTLSVerify bool
	// UserAgent is the HTTP User-Agent (empty: the driver's default).
	UserAgent string
	// Vars are the -e KEY=VALUE pairs for {{__ENV.KEY}} in templates.
	Vars map[string]string

	// Out is the result directory. It must not hold a run yet.
	Out string
	// Outputs are every output of the run, in start order (they stop in
	// the reverse order): the request CSV, k6 streams, series.jsonl, the
	// report, live endpoints, each made from Deps.Outputs by its registry
	// name. The result directory holds options.json, env.json,
	// snapshot.json and the summaries whatever Outputs say.
	Outputs []OutputSpec
	// Tags are put on every output; testid defaults to the name of Out.
	Tags map[string]string
	// TrendStats are the trend statistics of the summary (nil: k6's).
	TrendStats []string
	// SummaryMode is the console summary's layout (summary.ModeCompact,
	// ModeFull, ModeLegacy; "": legacy).
	SummaryMode string

	// Thresholds are the pass/fail criteria, parsed once.
	Thresholds threshold.Set
	// NoThresholds keeps the thresholds from being evaluated (they are
	// still checked against the metrics and recorded).
	NoThresholds bool

	// Profilers record target profiles around each scenario into
	// Out/profiles.
	Profilers []profile.Collector
	// Monitors are the target-side sources sampled every second; NICSpeed
	// is the targets' link speed in bytes per second (0: unknown).
	Monitors []monitor.Spec
	NICSpeed float64

	// Segment is the part of a distributed run this instance runs (zero:
	// not segmented). Set it with WithSegment, which scales the executors.
	Segment executor.Segment
	// StartAt, when set, is when the run's clock starts: Execute waits for
	// it, and instances of a segmented run share this time base.
	StartAt time.Time
	// Run numbers repeated runs from 1 (0: a single run); Repeat is how
	// many there are (streams get per-run file names when > 1).
	Run, Repeat int

	// CommandLine is the command that made this plan, credentials
	// redacted, recorded in options.json.
	CommandLine []string
	// WorkloadOptions are the family options given, recorded in
	// options.json (no secrets).
	WorkloadOptions map[string]string
	// Sweep describes the step of a sweep this run is, recorded in
	// options.json.
	Sweep map[string]string
}

// Scenario is one scenario of a plan.
type Scenario struct {
	// Name in nebula-bench form, e.g. "go.Go1Step".
	Name string
	// Family offers the scenario; it opens it against the target.
	Family workload.Family
	// Config is the scenario's executor.
	Config engine.Config
}

// OutputSpec names one output of a plan (output.Spec).
type OutputSpec = output.Spec

// Names lists the scenario names in run order.
func (p Plan) Names() []string {
	out := make([]string, len(p.Scenarios))
	for i, s := range p.Scenarios {
		out[i] = s.Name
	}
	return out
}

// families lists the plan's families in first-use order with the names
// each of them runs.
func (p Plan) families() ([]workload.Family, map[workload.Family][]string) {
	var order []workload.Family
	by := map[workload.Family][]string{}
	for _, s := range p.Scenarios {
		if _, ok := by[s.Family]; !ok {
			order = append(order, s.Family)
		}
		by[s.Family] = append(by[s.Family], s.Name)
	}
	return order, by
}

// MaxVUs is the most VUs any scenario of the plan will use.
func (p Plan) MaxVUs() int64 {
	var m int64
	for _, s := range p.Scenarios {
		m = max(m, s.Config.MaxVUsNeeded())
	}
	return m
}

// clone returns a copy of p whose scenario list may be changed.
func (p Plan) clone() Plan {
	p.Scenarios = append([]Scenario(nil), p.Scenarios...)
	return p
}

// WithSegment returns the plan of segment seg of a distributed run: every
// scenario's executor scaled to this instance's share (see package
// segment). p is not changed.
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

// ForRun returns the plan of run number n (from 1) of p.Repeat repeated
// runs: its result directory is Out/run-NN, and only the first run waits
// for StartAt (the next one starts when it gets there).
func (p Plan) ForRun(n int) Plan {
	q := p.clone()
	q.Run = n
	q.Out = filepath.Join(p.Out, fmt.Sprintf("run-%02d", n))
	if n > 1 {
		q.StartAt = time.Time{}
	}
	return q
}

// check refuses a plan the engine cannot run: a scenario twice, without
// a family or with an invalid executor.
func (p Plan) check() error {
	seen := map[string]bool{}
	for _, s := range p.Scenarios {
		switch {
		case seen[s.Name]:
			return usagef("scenario %s appears twice in the plan", s.Name)
		case s.Family == nil:
			return usagef("scenario %s has no family", s.Name)
		}
		seen[s.Name] = true
		if err := s.Config.Validate(); err != nil {
			return usagef("scenario %s: %s", s.Name, strings.ReplaceAll(err.Error(), "\n", "; "))
		}
	}
	return nil
}

// segmentName is the segment as recorded ("" when not segmented).
func (p Plan) segmentName() string {
	if p.Segment.Count == 0 {
		return ""
	}
	return p.Segment.String()
}
