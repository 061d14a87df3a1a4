package run

import (
	"fmt"
	"sync"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/threshold"
)

// abortWatch is the Display of AbortOnFail.
type abortWatch struct {
	Display
	stop chan struct{}
	once sync.Once
}

// AbortOnFail wraps the display inner of a run watching w: every second,
// once delay has passed, it evaluates the abortOnFail thresholds of ts
// whose own delayAbortEval has passed on the live measurements, and calls
// abort once with the first that fails (k6's abortOnFail).
func AbortOnFail(inner Display, w Watch, ts []threshold.Threshold, delay time.Duration, abort func(reason string)) Display {
	a := &abortWatch{Display: inner, stop: make(chan struct{})}
	start := time.Now()
	go func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-a.stop:
				return
			case <-tick.C:
			}
			elapsed := time.Since(start)
			if elapsed < delay {
				continue
			}
			snap := w.Agg.Snapshot()
			for _, t := range ts {
				for _, ab := range t.Aborts {
					if elapsed < ab.Delay {
						continue
					}
					one := t
					one.Exprs, one.Aborts = []threshold.Expr{t.Exprs[ab.Expr]}, nil
					for _, r := range threshold.Evaluate(snap, []threshold.Threshold{one}) {
						if !r.Pass {
							abort(fmt.Sprintf("abortOnFail: %s", r.String()))
							return
						}
					}
				}
			}
		}
	}()
	return a
}

// Stop ends the watch and the inner display.
func (a *abortWatch) Stop() {
	a.once.Do(func() { close(a.stop) })
	a.Display.Stop()
}

var _ engine.Hook = (*abortWatch)(nil)
