// Package liveline is the live status of a run on the console: the
// executor of each scenario as it starts, then one line a second with its
// elapsed time, VUs, iterations, rate, p95 and errors (redrawn in place on
// a terminal, one line per second in a log).
package liveline

import (
	"context"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/termio"
)

// progress prints a live status line every second while scenarios run.
type progress struct {
	w       io.Writer
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

// New starts the status line of the run watch shows on w; quiet prints
// nothing but keeps the Display's contract.
func New(w io.Writer, watch run.Watch, quiet bool) run.Display {
	p := &progress{w: w, agg: watch.Agg, specs: watch.Specs, clock: watch.Clock, quiet: quiet, tty: termio.IsTerminal(w),
		cur: make(chan progressScenario, len(watch.Specs)+1), done: make(chan struct{}), stopped: make(chan struct{})}
	go p.loop()
	return p
}

func (p *progress) BeforeScenario(_ context.Context, i int, spec engine.Spec) error {
	if !p.quiet {
		fmt.Fprintf(p.w, "%s: %s\n", spec.Name, spec.Config.Describe())
	}
	p.cur <- progressScenario{idx: i, start: p.clock.Now()}
	return nil
}

func (p *progress) AfterScenario(context.Context, int, engine.Spec) error { return nil }

// Stop ends the status line (cleared on a terminal).
func (p *progress) Stop() {
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
			} else {
				fmt.Fprintln(p.w, line) // logs get a line every second, as k6 prints them
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
