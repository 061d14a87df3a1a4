package run

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/envinfo"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/redact"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/vu"
)

// Execute opens the targets, runs plan once into plan.Out and writes every
// output: options.json and env.json, the per-request CSV, the series, the
// snapshot, summary.json and summary.txt, report.html and whatever
// plan.Outputs ask for. The result directory is created only once the
// targets are open and the thresholds checked; when Execute fails before
// the engine starts, what it created there is removed again; a scenario
// its family did not open fails Execute before the directory exists.
//
// Once the engine has started, Execute returns a Result even when it also
// returns an error (a failed output, a failed scenario): what was measured
// is kept. An interrupted run (ctx cancelled while measuring) returns a
// Result with Interrupted set and no error; ctx cancelled before the
// engine starts returns an *InterruptedError. Bad input is an error for
// which usage.Is(err) holds.
func Execute(ctx context.Context, plan Plan, deps Deps) (res *Result, err error) {
	p := plan
	if len(p.Scenarios) == 0 {
		return nil, usagef("no scenario to run")
	}
	if p.Out == "" {
		return nil, usagef("no result directory")
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	dir := p.Out
	reg := metrics.NewRegistry()
	wenv := deps.workloadEnv(p, reg)
	tags := runTags(p.Tags, dir)
	scenarios := map[string]vu.Scenario{}
	notes := map[string][]string{} // by scenario
	inProcess := false             // some target runs inside this process
	standIn := false               // some target is a stand-in (kfake)
	targetDesc, targetVersion := redact.URL(p.Target), ""
	var closers []func() error
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			if cerr := closers[i](); cerr != nil && err == nil {
				err = fmt.Errorf("close target: %w", cerr)
			}
		}
	}()
	families, byFamily := p.families()
	for _, fam := range families {
		opened, err := fam.Open(ctx, wenv, byFamily[fam])
		if err != nil {
			if usage.Is(err) {
				return nil, err
			}
			if ctx.Err() != nil {
				return nil, interrupted("interrupted while preparing the target")
			}
			return nil, fmt.Errorf("prepare %s: %w", fam.Name(), err)
		}
		if opened.Close != nil {
			closers = append(closers, opened.Close)
		}
		for n, s := range opened.Scenarios {
			scenarios[n] = s
		}
		// A family's notes concern its own scenarios, not the others of
		// the run; its scenario notes only the scenario they name.
		for _, name := range byFamily[fam] {
			notes[name] = append(append(notes[name], opened.Notes...), opened.ScenarioNotes[name]...)
		}
		inProcess = inProcess || opened.InProcess
		standIn = standIn || opened.StandIn
		if opened.Target != "" {
			targetDesc = opened.Target
		}
		if opened.TargetVersion != "" {
			targetVersion = opened.TargetVersion
		}
	}
	for _, sc := range p.Scenarios {
		if scenarios[sc.Name] == nil {
			return nil, fmt.Errorf("prepare %s: the family did not open scenario %s", sc.Family.Name(), sc.Name)
		}
	}
	if err := checkThresholds(p.Thresholds, reg, p.Names()); err != nil {
		return nil, err
	}
	if err := CheckResultDir(dir); err != nil {
		return nil, err
	}
	created, err := output.MkdirAll(dir)
	if err != nil {
		return nil, usagef("create result directory: %v", err)
	}
	undo := &undoFiles{}
	defer func() {
		if err != nil && !undo.disarmed {
			undo.run()
			removeCreated(created)
		}
	}()

	fp := envinfo.Collect()
	fp.Target, fp.TargetVersion = targetDesc, targetVersion
	opts := resultdir.Options{
		Args: p.CommandLine, Target: targetDesc, InProcess: inProcess, StandIn: standIn, Concurrent: p.Concurrent, Seed: p.Seed,
		Run: p.Run, Flags: p.WorkloadOptions, Thresholds: p.Thresholds.Specs(),
		Segment: p.segmentName(), Sweep: p.Sweep,
		Monitor: monitorDisplay(p.Monitors), NICSpeed: p.NICSpeed,
	}
	var specs []engine.Spec
	for _, s := range p.Scenarios {
		specs = append(specs, engine.Spec{Name: s.Name, Scenario: scenarios[s.Name], Config: s.Config})
		opts.Scenarios = append(opts.Scenarios, resultdir.ScenarioOptions{Name: s.Name, Config: s.Config})
	}
	undo.add(filepath.Join(dir, resultdir.OptionsFile))
	if err := resultdir.WriteJSON(dir, resultdir.OptionsFile, opts); err != nil {
		return nil, err
	}
	undo.add(filepath.Join(dir, resultdir.EnvFile))
	if err := resultdir.WriteJSON(dir, resultdir.EnvFile, fp); err != nil {
		return nil, err
	}
	if p.segmentName() != "" {
		for _, line := range SegmentLines(p) {
			fmt.Fprintln(orDiscard(deps.Info), line)
		}
	}
	if err := waitStartAt(ctx, deps, p.StartAt); err != nil {
		return nil, err
	}
	return execute(ctx, deps, p, reg, tags, specs, targetInfo{notes: notes, inProcess: inProcess}, undo)
}
