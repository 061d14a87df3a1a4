package run

import (
	"fmt"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// outputRegistry is the registry of the outputs a plan names
// (Deps.Outputs; nil: an empty one).
func (d Deps) outputRegistry() *output.Registry {
	if d.Outputs != nil {
		return d.Outputs
	}
	return &output.Registry{}
}

// CheckOutputSpec validates an output spec (kind=ARG) of the outputs of
// reg without starting it, so a bad spec fails with one line before
// anything runs.
func CheckOutputSpec(reg *output.Registry, o OutputSpec) error {
	if reg == nil {
		reg = &output.Registry{}
	}
	return checkOutputSpec(reg, o)
}

func checkOutputSpec(reg *output.Registry, o OutputSpec) error {
	f, ok := reg.Lookup(o.Kind)
	if !ok {
		return usagef("output %s is not available (known: %s)", o.Kind, joinUsages(reg))
	}
	if f.Check == nil {
		return nil
	}
	if err := f.Check(o.Arg); err != nil {
		return usagef("%s: %v", f.Label(o.Arg), err) // the error shows the URL without credentials
	}
	return nil
}

// outputParams are the Params every output of plan p is made from,
// before the run's registry and tags exist (the preflight's).
func (d Deps) outputParams(p Plan) output.Params {
	return output.Params{
		Scenarios: p.Names(), Segment: p.segmentName(), Dir: p.Out,
		Origin: targetOrigin(p.Target), TargetScheme: targetScheme(p.Target),
		Getenv: d.Getenv, Warn: orDiscard(d.Warn), Info: orDiscard(d.Info),
		Run: p.Run, Repeat: p.Repeat, Thresholds: thresholdExprs(p),
	}
}

// thresholdExprs are the threshold expressions of p by metric, for the
// outputs that record them (k6's JSON stream); none with NoThresholds.
func thresholdExprs(p Plan) map[string][]string {
	byMetric := map[string][]string{}
	if !p.NoThresholds {
		for _, t := range p.Thresholds.List() {
			for _, e := range t.Exprs {
				byMetric[t.Metric] = append(byMetric[t.Metric], e.Source)
			}
		}
	}
	return byMetric
}

// startOutputs starts, in one output.Manager, the generator self-check
// (which always runs), every output of p in plan order and, last, the
// target monitor, whose samples it hands to the outputs that publish them.
// inProcess tells that a target runs inside this process, which the
// self-check's warning must say. On an error, the outputs already started
// are stopped again (the manager is returned for what they created).
func startOutputs(deps Deps, p Plan, reg *metrics.Registry, tags map[string]string, inProcess bool) (*output.Manager, *selfcheck.Live, *monitorOutput, error) {
	m := &output.Manager{}
	info := orDiscard(deps.Info)
	check := selfcheck.NewLive(inProcess)
	_ = m.Start("", check, info) // sampling cannot fail
	var mon *monitorOutput
	if len(p.Monitors) > 0 {
		mon = &monitorOutput{dir: p.Out, specs: p.Monitors}
		fmt.Fprintln(info, mon.describe())
	}
	params := deps.outputParams(p)
	params.Registry, params.Tags, params.Start, params.Generator = reg, tags, time.Now(), check.Latest
	if err := m.StartSpecs(deps.outputRegistry(), p.Outputs, params, info); err != nil {
		_ = m.Stop()
		return m, nil, nil, err
	}
	if mon != nil {
		if err := m.Start("monitor", mon, info); err != nil {
			_ = m.Stop()
			return m, nil, nil, err
		}
		m.WatchTarget(mon.m)
	}
	return m, check, mon, nil
}

func appendNote(notes []string, n string) []string { return output.AddNote(notes, n) }

// joinUsages lists the forms of the outputs reg knows.
func joinUsages(reg *output.Registry) string { return strings.Join(reg.Usages(), ", ") }
