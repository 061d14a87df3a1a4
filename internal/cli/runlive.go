package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/influx"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// influxTokenEnv names the environment variable holding the InfluxDB 2
// token; the token is never written to any output.
const influxTokenEnv = influx.TokenEnv

// newOutputs is the registry of the outputs --out names.
func newOutputs() *output.Registry { return outputs.New() }

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

// checkOutputSpec validates a live --out spec (kind=ARG) without starting
// it, so a bad spec fails with one line before anything runs.
func checkOutputSpec(o outputSpec) error {
	reg := newOutputs()
	f, ok := reg.Lookup(o.kind)
	if !ok {
		return usagef("output %s is not available (known: %s)", o.kind, joinUsages(reg))
	}
	if f.Check == nil {
		return nil // json, csv: checked by makePlan (checkStreamSpec)
	}
	if err := f.Check(o.arg); err != nil {
		return usagef("--out %s: %v", f.Name, err) // the error shows the URL without credentials
	}
	return nil
}

// outputParams are the output.Params of run p.
func outputParams(env *Env, p *runPlan, reg *metrics.Registry, info io.Writer) output.Params {
	return output.Params{
		Registry: reg, Scenarios: p.names, Tags: p.tags, Segment: p.flags.segment,
		Origin: targetOrigin(p.target), Getenv: env.Getenv, Warn: env.Stderr, Info: info,
	}
}

// startLiveOutputs starts the outputs p asks for, and the generator
// self-check, which always runs.
// inProcess tells that a target runs inside this process, which the
// self-check's warning must say.
func startLiveOutputs(_ context.Context, env *Env, p *runPlan, reg *metrics.Registry, inProcess bool) (*liveOutputs, error) {
	f := p.flags
	for _, o := range p.outputs {
		if err := checkOutputSpec(o); err != nil {
			return nil, err
		}
	}
	promF := outputs.Prometheus()
	if f.prometheus != "" {
		if err := promF.Check(f.prometheus); err != nil {
			return nil, usagef("--prometheus: %v", err)
		}
	}
	info := io.Discard
	if !f.quiet && !f.json {
		info = env.Stderr
	}
	params := outputParams(env, p, reg, info)
	l := &liveOutputs{check: selfcheck.NewLive(inProcess)}
	_ = l.set.Start("", l.check, info) // sampling cannot fail
	if f.prometheus != "" {
		pp := params
		pp.Arg, pp.Start, pp.Generator = f.prometheus, time.Now(), l.check.Latest
		o, err := promF.New(pp)
		if err == nil {
			err = l.set.Start("", o, info)
		}
		if err != nil {
			l.close()
			return nil, fmt.Errorf("--prometheus %s: %w", f.prometheus, err)
		}
	}
	outs := newOutputs()
	for _, spec := range p.outputs {
		if _, k6 := k6StreamKinds[spec.kind]; k6 {
			continue // per request: openK6Streams
		}
		pp := params
		pp.Arg = spec.arg
		o, err := outs.New(spec.kind, pp)
		if err == nil {
			err = l.set.Start("", o, info)
		}
		if err != nil {
			l.close()
			return nil, usagef("--out %s: %v", spec.kind, err)
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
