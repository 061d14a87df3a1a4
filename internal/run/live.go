package run

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/influx"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/output/webdash"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// InfluxTokenEnv names the environment variable holding the InfluxDB 2
// token; the token is never written to any output.
const InfluxTokenEnv = influx.TokenEnv

// liveOutputs are outputs fed while the run goes (Prometheus, InfluxDB,
// remote write, the generator self-check), run through their life by one
// output.Set.
type liveOutputs struct {
	set       output.Set
	check     *selfcheck.Live
	observers []metrics.Observer
	hooks     []engine.Hook

	self   *selfcheck.Report // set by close
	closed bool
}

// outputRegistry is the registry of the outputs --out names: deps.Outputs,
// or stampede's own.
func (d Deps) outputRegistry() *output.Registry {
	if d.Outputs != nil {
		return d.Outputs
	}
	return outputs.New()
}

// CheckOutputSpec validates a live --out spec (kind=ARG) of the outputs
// of reg (nil: stampede's own) without starting it, so a bad spec fails
// with one line before anything runs.
func CheckOutputSpec(reg *output.Registry, o OutputSpec) error {
	if reg == nil {
		reg = outputs.New()
	}
	return checkOutputSpec(reg, o)
}

func checkOutputSpec(reg *output.Registry, o OutputSpec) error {
	f, ok := reg.Lookup(o.Kind)
	if !ok {
		return usagef("output %s is not available (known: %s)", o.Kind, joinUsages(reg))
	}
	if f.Check == nil {
		return nil // json, csv: checked by the plan (CheckStreamSpec)
	}
	if err := f.Check(o.Arg); err != nil {
		return usagef("--out %s: %v", f.Name, err) // the error shows the URL without credentials
	}
	return nil
}

// startLiveOutputs starts the outputs p asks for, and the generator
// self-check, which always runs.
// inProcess tells that a target runs inside this process, which the
// self-check's warning must say.
func startLiveOutputs(_ context.Context, deps Deps, p Plan, reg *metrics.Registry, tags map[string]string, inProcess bool) (*liveOutputs, error) {
	outs := deps.outputRegistry()
	for _, o := range p.Outputs {
		if err := checkOutputSpec(outs, o); err != nil {
			return nil, err
		}
	}
	promF := outputs.Prometheus()
	if p.Prometheus != "" {
		if err := promF.Check(p.Prometheus); err != nil {
			return nil, usagef("--prometheus: %v", err)
		}
	}
	info := orDiscard(deps.Info)
	params := output.Params{
		Registry: reg, Scenarios: p.Names(), Tags: tags, Segment: p.segmentName(),
		Origin: targetOrigin(p.Target), Getenv: deps.Getenv, Warn: orDiscard(deps.Warn), Info: info,
	}
	l := &liveOutputs{check: selfcheck.NewLive(inProcess)}
	_ = l.set.Start("", l.check, info) // sampling cannot fail
	if p.Prometheus != "" {
		pp := params
		pp.Arg, pp.Start, pp.Generator, pp.Linger = p.Prometheus, time.Now(), l.check.Latest, p.Linger
		o, err := promF.New(pp)
		if err == nil {
			err = l.set.Start("", o, info)
		}
		if err != nil {
			l.close()
			return nil, fmt.Errorf("--prometheus %s: %w", p.Prometheus, err)
		}
	}
	if p.WebDashboard.Enabled {
		if err := l.set.Start("", webdash.New(p.WebDashboard.config(p.Names())), info); err != nil {
			l.close()
			return nil, usagef("--web-dashboard: %v", err)
		}
	}
	for _, spec := range p.Outputs {
		if _, k6 := K6StreamKinds[spec.Kind]; k6 {
			continue // per request: openK6Streams
		}
		pp := params
		pp.Arg = spec.Arg
		o, err := outs.New(spec.Kind, pp)
		if err == nil {
			err = l.set.Start("", o, info)
		}
		if err != nil {
			l.close()
			return nil, usagef("--out %s: %v", spec.Kind, err)
		}
	}
	l.observers = l.set.Observers()
	return l, nil
}

// annotate adds what the live outputs learned to the snapshot before the
// summaries are written: a note on each scenario during which the
// generator was saturated, and on every scenario when InfluxDB lost lines.
func (l *liveOutputs) annotate(snap *metrics.Snapshot) {
	l.close()
	l.set.Annotate(snap)
}

func appendNote(notes []string, n string) []string { return output.AddNote(notes, n) }

// writeDir writes the live outputs' own files into dir (the self-check
// samples), before the result directory is finished.
func (l *liveOutputs) writeDir(dir string) error {
	l.close()
	return l.set.WriteDir(dir)
}

// close stops every live output; later calls do nothing.
func (l *liveOutputs) close() {
	if l.closed {
		return
	}
	l.closed = true
	_ = l.set.Stop() // the live outputs count what they lose: notes, not errors
	if l.check != nil {
		l.self = l.check.Report()
	}
}

// joinUsages lists the forms of the outputs reg knows.
func joinUsages(reg *output.Registry) string { return strings.Join(reg.Usages(), ", ") }
