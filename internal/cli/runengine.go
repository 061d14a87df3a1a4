package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// execute runs the engine over specs with every output attached, then
// writes the result directory and the summaries.
// targetInfo is what the opened families said about their targets.
type targetInfo struct {
	notes     []string // for every scenario's summary
	inProcess bool     // a target runs inside stampede's process
}

// cleanup is told every file execute creates before the engine starts, and
// disarmed when the engine starts: until then, a failed command removes
// what it created.
func execute(ctx context.Context, env *Env, p *runPlan, dir string, reg *metrics.Registry, specs []engine.Spec, target targetInfo, startAt time.Time, cleanup *undoFiles) (err error) {
	f := p.flags
	// Outputs open one after the other; when one fails, the ones already
	// open are closed again.
	var undo []func()
	fail := func(err error) error {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		return err
	}
	deps := engine.Deps{Backoff: engine.Backoff{Min: f.backoff, Max: f.backoffMax}}
	if f.backoff == 0 {
		deps.Backoff.Min = -1 // --backoff 0: no waiting
	}
	var csv requestLog
	if !f.noCSV {
		path := f.csvFile
		if path == "" {
			path = filepath.Join(dir, resultdir.RequestsFile)
		}
		if _, serr := os.Stat(path); serr != nil {
			// Ours, with the directories made for it: removed when the
			// command fails before the run.
			dirs, derr := createdDirs(filepath.Dir(path))
			if derr != nil {
				return usagef("--csv: %v", derr)
			}
			cleanup.add(path)
			cleanup.add(dirs...)
		}
		if csv, err = openRequestLog(path); err != nil {
			return err
		}
		deps.Log = csv
		undo = append(undo, func() { csv.Close() })
	}
	cleanup.add(filepath.Join(dir, resultdir.SeriesFile))
	streams, err := openK6Streams(p, p.run, reg, p.tags, cleanup)
	if err != nil {
		return fail(err)
	}
	undo = append(undo, func() { closeK6Streams(streams) })
	deps.Log = withStreams(deps.Log, streams)
	series, err := resultdir.NewSeriesWriter(dir)
	if err != nil {
		return fail(err)
	}
	undo = append(undo, func() { series.Close() })
	mon, err := startMonitor(env, p, dir)
	if err != nil {
		return fail(err)
	}
	undo = append(undo, func() { _ = mon.Stop() })
	live, err := startLiveOutputs(ctx, env, p, reg, target.inProcess)
	if err != nil {
		return fail(err)
	}
	live.attachMonitor(mon)

	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	clock := metrics.NewClock()
	if !startAt.IsZero() {
		clock = metrics.ClockAt(startAt) // segments share one time base
	}
	agg := metrics.NewAggregator(reg, clock, names, append([]metrics.Observer{series.Observe}, live.observers...)...)
	go agg.Run()
	for i := range specs {
		for _, n := range target.notes {
			agg.Note(i, n)
		}
	}
	deps.Agg, deps.Clock = agg, clock
	prog := newProgress(env.Stderr, agg, specs, clock, f.quiet || f.json)
	deps.Hooks = append(deps.Hooks, prog)
	deps.Hooks = append(deps.Hooks, live.hooks...)
	if len(p.profilers) > 0 {
		deps.Hooks = append(deps.Hooks, &profileHook{collectors: p.profilers, dir: filepath.Join(dir, "profiles")})
	}

	cleanup.disarm() // from here on, what was measured is kept
	interrupted, runErr := engine.Run(ctx, engine.Plan{Scenarios: specs, Concurrent: f.concurrent}, deps)
	prog.stop()
	agg.Close()
	snap := agg.Snapshot()
	snap.Interrupted = snap.Interrupted || interrupted
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
	if serr := series.Close(); serr != nil {
		errs = append(errs, fmt.Errorf("series: %w", serr))
	}
	live.close()
	live.annotate(snap)
	if merr := finishMonitor(mon, dir, snap, p, live.self); merr != nil {
		errs = append(errs, merr)
	}
	if werr := live.writeDir(dir); werr != nil {
		errs = append(errs, werr)
	}
	thresholdsFailed, oerr := finishRun(env, p, dir, snap)
	if oerr != nil {
		errs = append(errs, oerr)
	}
	if !f.quiet && !f.json {
		fmt.Fprintf(env.Stderr, "results: %s\n", dir)
	}
	switch {
	case runErr != nil:
		return fmt.Errorf("run: %w", runErr)
	case len(errs) > 0:
		return errs[0]
	case interrupted:
		return &ExitError{Code: ExitInterrupted, Msg: "interrupted: results cover the run until the stop"}
	case thresholdsFailed:
		return &ExitError{Code: ExitThresholdsFailed, Msg: "some thresholds have failed"}
	}
	return nil
}

// progress prints a live status line every second while scenarios run.
type progress struct {
	w       interface{ Write([]byte) (int, error) }
	agg     *metrics.Aggregator
	specs   []engine.Spec
	clock   metrics.Clock
	quiet   bool
	tty     bool
	cur     chan progressScenario
	done    chan struct{}
	stopped chan struct{}
}

type progressScenario struct {
	idx   int
	start time.Duration
}

func newProgress(w interface{ Write([]byte) (int, error) }, agg *metrics.Aggregator, specs []engine.Spec, clock metrics.Clock, quiet bool) *progress {
	p := &progress{w: w, agg: agg, specs: specs, clock: clock, quiet: quiet, tty: isTTY(w),
		cur: make(chan progressScenario, len(specs)+1), done: make(chan struct{}), stopped: make(chan struct{})}
	go p.loop()
	return p
}

func (p *progress) BeforeScenario(_ context.Context, i int, spec engine.Spec) error {
	if !p.quiet {
		fmt.Fprintf(p.w, "%s: %s\n", spec.Name, describeExecutor(spec.Config))
	}
	p.cur <- progressScenario{idx: i, start: p.clock.Now()}
	return nil
}

func (p *progress) AfterScenario(context.Context, int, engine.Spec) error { return nil }

func (p *progress) stop() {
	close(p.done)
	<-p.stopped
}

func (p *progress) loop() {
	defer close(p.stopped)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	cur := progressScenario{idx: -1}
	printed := 0
	var lastIters int64
	lastAt := p.clock.Now()
	for {
		select {
		case <-p.done:
			if p.tty && printed > 0 {
				fmt.Fprint(p.w, "\r\033[K")
			}
			return
		case c := <-p.cur:
			if p.tty && printed > 0 {
				fmt.Fprint(p.w, "\r\033[K")
			}
			cur = c
			lastIters, lastAt = 0, c.start
		case <-t.C:
			if p.quiet || cur.idx < 0 {
				continue
			}
			now := p.clock.Now()
			l := p.agg.Live(cur.idx)
			rate := float64(l.Iterations-lastIters) / (now - lastAt).Seconds()
			lastIters, lastAt = l.Iterations, now
			line := p.line(cur, l, now, rate)
			if p.tty {
				fmt.Fprint(p.w, "\r\033[K"+line)
			} else if printed%10 == 0 {
				fmt.Fprintln(p.w, line) // logs get a line every 10 s
			}
			printed++
		}
	}
}

// line renders the status of the running scenario in at most 79 columns:
// elapsed/planned time, VUs, iterations, the rate over the last tick, p95
// of the last finished second and errors. The figures keep their units
// whatever their size: the scenario name is shortened to make room.
func (p *progress) line(c progressScenario, l metrics.LiveStats, now time.Duration, rate float64) string {
	spec := p.specs[c.idx]
	el := now - c.start
	total := spec.Config.TotalDuration()
	clock := fmt.Sprintf("%.0fs/%.0fs", el.Seconds(), total.Seconds())
	p95 := "-"
	if l.LastP95 > 0 {
		p95 = fmtMicros(l.LastP95)
	}
	figures := fmt.Sprintf("%-9s %5d VUs %9d it %7.0f/s p95 %-8s err %d", clock, l.VUs, l.Iterations, rate, p95, l.Errors)
	room := max(79-utf8.RuneCountInString(figures)-1, 8)
	name := []rune(spec.Name)
	if len(name) > room {
		name = append(name[:room-1], '…')
	}
	return fmt.Sprintf("%-*s %s", room, string(name), figures)
}

// fmtMicros formats µs compactly like k6 (215µs, 1.23ms, 2.5s).
func fmtMicros(us int64) string {
	switch {
	case us < 1000:
		return fmt.Sprintf("%dµs", us)
	case us < 1_000_000:
		return fmt.Sprintf("%.2fms", float64(us)/1e3)
	default:
		return fmt.Sprintf("%.2fs", float64(us)/1e6)
	}
}
