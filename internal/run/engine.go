package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// targetInfo is what the opened families said about their targets.
type targetInfo struct {
	notes     map[string][]string // by scenario, for its summary
	inProcess bool                // a target runs inside stampede's process
}

// execute runs the engine over specs with every output attached, then
// writes the result directory and the summaries. cleanup is told every
// file execute creates before the engine starts, and disarmed when the
// engine starts: until then, a failed command removes what it created.
func execute(ctx context.Context, deps Deps, p Plan, reg *metrics.Registry, tags map[string]string, specs []engine.Spec, target targetInfo, cleanup *undoFiles) (res *Result, err error) {
	dir := p.Out
	// Outputs open one after the other; when one fails, the ones already
	// open are closed again.
	var undo []func()
	fail := func(err error) (*Result, error) {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		return nil, err
	}
	edeps := engine.Deps{Backoff: p.Backoff}
	release, err := reserveRoom(dir)
	if err != nil {
		return nil, err
	}
	cleanup.add(filepath.Join(dir, ReserveFile))
	undo = append(undo, release)
	var writers []errWriter // asked for write errors while the run goes
	var csv requestLog
	if !p.NoCSV {
		path := p.CSV
		if path == "" {
			path = filepath.Join(dir, resultdir.RequestsFile)
		}
		if _, serr := os.Stat(path); serr != nil {
			// Ours, with the directories made for it: removed when the
			// command fails before the run.
			dirs, derr := createdDirs(filepath.Dir(path))
			if derr != nil {
				return nil, usagef("--csv: %v", derr)
			}
			cleanup.add(path)
			cleanup.add(dirs...)
		}
		if csv, err = openRequestLog(path, p.Target); err != nil {
			return nil, err
		}
		edeps.Log = csv
		undo = append(undo, func() { csv.Close() })
		if w, ok := csv.(errWriter); ok {
			writers = append(writers, w)
		}
	}
	cleanup.add(filepath.Join(dir, resultdir.SeriesFile))
	streams, err := openK6Streams(deps, p, reg, tags, cleanup)
	if err != nil {
		return fail(err)
	}
	undo = append(undo, func() { closeK6Streams(streams) })
	for _, s := range streams {
		if w, ok := s.(errWriter); ok {
			writers = append(writers, w)
		}
	}
	edeps.Log = withStreams(edeps.Log, streams)
	series := resultdir.NewSeriesOutput(dir) // an output.Output like the live ones
	if err := series.Start(); err != nil {
		return fail(err)
	}
	undo = append(undo, func() { series.Stop() })
	mon, err := startMonitor(deps, p, dir)
	if err != nil {
		return fail(err)
	}
	undo = append(undo, func() { _ = mon.Stop() })
	live, err := startLiveOutputs(ctx, deps, p, reg, tags, target.inProcess)
	if err != nil {
		return fail(err)
	}
	live.attachMonitor(mon)
	edeps.Log = withLogs(edeps.Log, live.set.RequestLogs()) // outputs that take request records

	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	clock := metrics.NewClock()
	if !p.StartAt.IsZero() {
		clock = metrics.ClockAt(p.StartAt) // segments share one time base
	}
	agg := metrics.NewAggregator(reg, clock, names, append([]metrics.Observer{series.Observe}, live.observers...)...)
	go agg.Run()
	for i, s := range specs {
		for _, n := range target.notes[s.Name] {
			agg.Note(i, n)
		}
	}
	edeps.Agg, edeps.Clock = agg, clock
	var display Display
	if deps.Display != nil {
		display = deps.Display(Watch{Agg: agg, Specs: specs, Clock: clock})
		edeps.Hooks = append(edeps.Hooks, display)
	}
	edeps.Hooks = append(edeps.Hooks, live.hooks...)
	if len(p.Profilers) > 0 {
		edeps.Hooks = append(edeps.Hooks, &profileHook{collectors: p.Profilers, dir: filepath.Join(dir, "profiles")})
	}

	cleanup.disarm() // from here on, what was measured is kept
	rctx, stopRun := context.WithCancelCause(ctx)
	defer stopRun(nil)
	stopWatch := watchWriters(writers, stopRun)
	interrupted, runErr := engine.Run(rctx, engine.Plan{Scenarios: specs, Concurrent: p.Concurrent}, edeps)
	stopWatch()
	writeErr := stoppedByWriter(rctx)
	if writeErr != nil {
		for i := range specs {
			agg.Note(i, writeErr.Error())
		}
		// The failed writer writes no more: the room kept goes to the
		// series and the summaries.
		release()
	}
	if display != nil {
		display.Stop()
	}
	agg.Close()
	snap := agg.Snapshot()
	snap.Interrupted = snap.Interrupted || interrupted
	if writeErr != nil {
		snap.Stopped = writeErr.reason()
	}
	_ = mon.Stop() // before the live outputs close: it feeds them (error reported by finishMonitor)

	// Every output is flushed and closed even when the run failed or was
	// interrupted, so what was measured is never lost.
	var errs []error
	if csv != nil {
		if cerr := csv.Close(); cerr != nil {
			errs = append(errs, fmt.Errorf("request log: %w", cerr))
		}
	}
	if kerr := closeK6Streams(streams); kerr != nil {
		errs = append(errs, fmt.Errorf("--out: %w", kerr))
	}
	if serr := series.Stop(); serr != nil { // "series: ..."
		errs = append(errs, serr)
	}
	live.close()
	live.annotate(snap)
	if merr := finishMonitor(mon, dir, snap, p, live.self); merr != nil {
		errs = append(errs, merr)
	}
	if werr := live.writeDir(dir); werr != nil {
		errs = append(errs, werr)
	}
	res = &Result{Dir: dir, Snapshot: snap, Interrupted: interrupted, Tags: tags}
	release() // the room kept for what follows
	finishErr := finishDir(deps, p, res)
	if finishErr != nil {
		errs = append(errs, finishErr)
	}
	fmt.Fprintf(orDiscard(deps.Info), "results: %s\n", dir)
	switch {
	case writeErr != nil && finishErr != nil:
		return res, fmt.Errorf("%w; the summary could not be written either: %v", writeErr, finishErr)
	case writeErr != nil:
		return res, fmt.Errorf("%w; snapshot and summaries are in %s", writeErr, dir)
	case runErr != nil:
		return res, fmt.Errorf("run: %w", runErr)
	case len(errs) > 0:
		return res, errs[0]
	}
	return res, nil
}
