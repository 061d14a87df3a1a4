package run

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/plan"
)

// targetInfo is what the opened families said about their targets.
type targetInfo struct {
	notes     map[string][]string // by scenario, for its summary
	inProcess bool                // a target runs inside stampede's process
}

// execute runs the engine over specs with every output of p attached, then
// writes the result directory and the summaries. cleanup is told every
// file execute creates before the engine starts, and disarmed when the
// engine starts: until then, a failed command removes what it created.
func execute(ctx context.Context, deps Deps, p Plan, reg *metrics.Registry, tags map[string]string, specs []engine.Spec, target targetInfo, cleanup *undoFiles) (res *Result, err error) {
	dir := p.Out
	edeps := engine.Deps{Backoff: p.Backoff}
	release, err := reserveRoom(dir)
	if err != nil {
		return nil, err
	}
	cleanup.add(filepath.Join(dir, ReserveFile))
	// Every output starts here, in one manager, and stops in it.
	outs, check, mon, err := startOutputs(deps, p, reg, tags, target.inProcess)
	cleanup.add(outs.Created()...)
	if err != nil {
		release()
		return nil, err
	}
	var writers []errWriter // asked for write errors while the run goes
	for _, o := range outs.Outputs() {
		if w, ok := o.(errWriter); ok {
			writers = append(writers, w)
		}
	}
	edeps.Log = withLogs(nil, outs.RequestLogs()) // outputs that take request records
	defer func() {
		if err != nil && !cleanup.disarmed {
			_ = outs.Stop()
		}
	}()

	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	clock := metrics.NewClock()
	if !p.StartAt.IsZero() {
		clock = metrics.ClockAt(p.StartAt) // segments share one time base
	}
	agg := metrics.NewAggregator(reg, clock, names, outs.Observers()...)
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
	snap := agg.Final()
	snap.Interrupted = snap.Interrupted || interrupted
	if writeErr != nil {
		snap.Stopped = writeErr.reason()
	}

	// Every output is flushed and closed even when the run failed or was
	// interrupted, so what was measured is never lost; every error is
	// reported.
	var errs []error
	if oerr := outs.Stop(); oerr != nil {
		errs = append(errs, oerr)
	}
	outs.Annotate(snap)
	if merr := finishMonitor(mon, dir, snap, p, check.Report()); merr != nil {
		errs = append(errs, merr)
	}
	if werr := outs.WriteDir(dir); werr != nil {
		errs = append(errs, werr)
	}
	res = &Result{Result: plan.Result{Dir: dir, Snapshot: snap, Interrupted: interrupted, Tags: tags}}
	release() // the room kept for what follows
	finishErr := finishDir(deps, p, res)
	if ferr := outs.Finish(ctx, output.Finished{Dir: dir, Snapshot: snap, SummaryJSON: res.SummaryJSON}); ferr != nil {
		finishErr = errors.Join(finishErr, ferr)
	}
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
		return res, errors.Join(errs...)
	}
	return res, nil
}
