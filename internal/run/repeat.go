package run

import (
	"context"
	"fmt"
	"io"
	"time"
)

// RepeatOptions say how Repeat runs the runs of a plan.
type RepeatOptions struct {
	// Cooldown is waited between two runs (0: none).
	Cooldown time.Duration
	// Show, when set, shows the result of each run (its summary) as soon
	// as the run has ended.
	Show func(*Result) error
	// Info receives a line announcing each run (nil: none).
	Info io.Writer
}

// Repeat runs plan p.Repeat times, one after the other: run i is
// p.ForRun(i), into p.Out/run-NN, so that compare can weigh the runs
// against each other. A run whose thresholds fail does not stop the
// others; thresholdsFailed tells that some did. The first run that fails
// ends Repeat with its error; one interrupted while measuring, or ctx
// ending between runs, with an *InterruptedError. p's checks (Preflight,
// CheckMemory) are the caller's, once for all runs.
func Repeat(ctx context.Context, p Plan, deps Deps, o RepeatOptions) (thresholdsFailed bool, err error) {
	for i := 1; i <= p.Repeat; i++ {
		if ctx.Err() != nil {
			break
		}
		q := p.ForRun(i)
		if o.Info != nil {
			fmt.Fprintf(o.Info, "\n=== run %d of %d → %s\n", i, p.Repeat, q.Out)
		}
		res, err := Execute(ctx, q, deps)
		if o.Show != nil {
			if serr := o.Show(res); err == nil {
				err = serr
			}
		}
		switch {
		case err != nil:
			return thresholdsFailed, err
		case res.Interrupted:
			return thresholdsFailed, &InterruptedError{Msg: "interrupted: results cover the run until the stop"}
		case res.ThresholdsFailed:
			thresholdsFailed = true // keep going: the comparison needs every run
		}
		if i < p.Repeat && o.Cooldown > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(o.Cooldown):
			}
		}
	}
	if ctx.Err() != nil {
		return thresholdsFailed, &InterruptedError{Msg: "interrupted"}
	}
	return thresholdsFailed, nil
}
