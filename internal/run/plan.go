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
	"strings"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/profile"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/plan"
)

// Plan is a public plan.Plan with what only the command line sets:
// target profiling and monitoring (--profile, --monitor). Its methods are
// plan.Plan's, returning Plans.
type Plan struct {
	plan.Plan

	// Profilers record target profiles around each scenario into
	// Out/profiles.
	Profilers []profile.Collector
	// Monitors are the target-side sources sampled every second; NICSpeed
	// is the targets' link speed in bytes per second (0: unknown).
	Monitors []monitor.Spec
	NICSpeed float64
}

// Scenario is one scenario of a Plan (plan.Scenario).
type Scenario = plan.Scenario

// OutputSpec names one output of a run (output.Spec).
type OutputSpec = output.Spec

// WithSegment is plan.Plan.WithSegment, keeping p's own fields.
func (p Plan) WithSegment(seg executor.Segment) (Plan, error) {
	q, err := p.Plan.WithSegment(seg)
	p.Plan = q
	return p, err
}

// ForRun is plan.Plan.ForRun, keeping p's own fields.
func (p Plan) ForRun(n int) Plan {
	p.Plan = p.Plan.ForRun(n)
	return p
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
