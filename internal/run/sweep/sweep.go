// Package sweep runs a sweep: one run plan once per step of one
// dimension (VUs, arrival rate, cluster size or target), each step a run
// into its own result directory below a parent, each optionally prepared
// by a command (a cluster resize) and a pause; then it analyses the steps
// (package analysis/sweep) into the parent: sweep.json, sweep.txt and
// report.html with the scaling curves. It is what `stampede sweep` calls
// once its flags are a Sweep; it knows no flags.
package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	analysis "github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/usage"
)

// Sweep is a planned sweep.
type Sweep struct {
	// Parent holds the steps' result directories and the analysis.
	Parent string
	// Steps in run order, all of one dimension.
	Steps []Step
	// BeforeStep, when set, is run by sh -c before each step, with
	// {nodes}, {step}, {value} and {target} substituted (and exported as
	// SWEEP_NODES, SWEEP_STEP, SWEEP_VALUE, SWEEP_TARGET). It must exit 0
	// within HookTimeout, or the sweep ends.
	BeforeStep  string
	HookTimeout time.Duration
	// Pause is waited between steps, after the hook (0: none).
	Pause time.Duration
	// Rule finds the knee of the curves.
	Rule analysis.Rule
	// NoReport leaves out report.html.
	NoReport bool
}

// Runner runs the steps of a sweep and shows what happens.
type Runner struct {
	// Plan returns the run plan of step st: the sweep's run with the
	// step's VUs, rate, target and cluster size (required). Execute sets
	// the plan's result directory (st.Dir) and sweep description
	// (st.Info) itself.
	Plan func(st Step) (run.Plan, error)
	// Deps are the runs' dependencies: drivers, messages, progress.
	Deps run.Deps
	// AvailableMemory tells what a step may use, in bytes, before it runs
	// (run.CheckMemory); nil: not checked.
	AvailableMemory func() int64
	// Started, when set, is called once a step's plan has passed its
	// checks, right before it runs; the function it returns, after the
	// run.
	Started func() (stop func(), err error)
	// Execute, when set, runs a step's checked plan with Deps instead of
	// run.Execute (a k6 script's step: its aborts and handleSummary). A
	// result with an error still shows its summary; the error ends the
	// sweep.
	Execute func(ctx context.Context, p run.Plan, deps run.Deps) (*run.Result, error)
	// Show, when set, shows the summary of a step that ran.
	Show func(*run.Result) error
	// Stdout receives the analysis table; Stderr the hook's output and
	// what the sweep does (nil writers discard). Quiet leaves out the
	// announcement of the sweep and of each step.
	Stdout, Stderr io.Writer
	Quiet          bool
}

// Outcome is what a sweep did.
type Outcome struct {
	// Done are the result directories of the steps that ran, in order.
	Done []string
	// ThresholdsFailed tells that some step's thresholds failed (the
	// sweep goes on).
	ThresholdsFailed bool
}

// interruptedRun is the message of a step interrupted while it measured.
const interruptedRun = "interrupted: results cover the run until the stop"

// Execute runs the steps of sw one after the other and then analyses the
// steps that ran (Analyse), also when a step failed. A step whose
// thresholds fail does not stop the sweep. Errors: bad input of the first
// step (the same for every step) is returned as it is (usage.Is); a
// failing BeforeStep, a failing step or the analysis end the sweep with
// an error that says how many steps are done and where; an interruption
// (ctx) is a *run.InterruptedError.
func Execute(ctx context.Context, sw Sweep, r Runner) (Outcome, error) {
	var out Outcome
	stderr := orDiscard(r.Stderr)
	total := len(sw.Steps)
	if total == 0 {
		return out, usage.Errorf("nothing to sweep")
	}
	if !r.Quiet {
		fmt.Fprintf(stderr, "sweep: %d steps of %s into %s\n", total, sw.Steps[0].Dim, sw.Parent)
	}
	var stepErr error
	for i, st := range sw.Steps {
		if ctx.Err() != nil {
			break
		}
		if sw.BeforeStep != "" {
			if err := runHook(ctx, stderr, sw.BeforeStep, sw.HookTimeout, st); err != nil {
				stepErr = fmt.Errorf("sweep: --before-step for %s failed: %v; %d of %d steps done, kept in %s",
					st.Description, err, len(out.Done), total, sw.Parent)
				break
			}
		}
		if i > 0 && sw.Pause > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(sw.Pause):
			}
			if ctx.Err() != nil {
				break
			}
		}
		if !r.Quiet {
			fmt.Fprintf(stderr, "\n=== sweep step %d of %d: %s → %s\n", st.N, total, st.Description, st.Dir)
		}
		res, err := r.step(ctx, st)
		if resultdir.IsResult(st.Dir) {
			out.Done = append(out.Done, st.Dir)
		}
		var ie *run.InterruptedError
		switch {
		case err == nil && res.Interrupted:
			stepErr = &run.InterruptedError{Msg: interruptedRun}
		case err == nil:
			out.ThresholdsFailed = out.ThresholdsFailed || res.ThresholdsFailed
		case usage.Is(err) && len(out.Done) == 0:
			return out, err // bad input: the same for every step
		case errors.As(err, &ie):
			stepErr = err
		default:
			stepErr = fmt.Errorf("sweep step %d (%s): %w; %d of %d steps done, kept in %s", st.N, st.Description, err, len(out.Done), total, sw.Parent)
		}
		if stepErr != nil {
			break
		}
	}
	if len(out.Done) > 0 {
		if err := Analyse(sw.Parent, out.Done, sw.Rule, sw.NoReport, r.Stdout, stderr); err != nil && stepErr == nil {
			stepErr = err
		}
	}
	switch {
	case stepErr != nil:
		return out, stepErr
	case ctx.Err() != nil:
		return out, &run.InterruptedError{Msg: fmt.Sprintf("interrupted: %d of %d steps done, kept in %s", len(out.Done), total, sw.Parent)}
	}
	return out, nil
}

// step runs step st in this process with its checks, sampling the
// generator's CPU for the analysis (run.Measured). The result is nil when
// the error is not.
func (r Runner) step(ctx context.Context, st Step) (*run.Result, error) {
	p, err := r.Plan(st)
	if err != nil {
		return nil, err
	}
	p.Out, p.Sweep = st.Dir, st.Info()
	var res *run.Result
	err = run.Measured(p.Out, func() error {
		var err error
		res, err = r.execute(ctx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// execute checks p against this machine and its targets, runs it and
// shows its summary.
func (r Runner) execute(ctx context.Context, p run.Plan) (*run.Result, error) {
	var avail int64
	if r.AvailableMemory != nil {
		avail = r.AvailableMemory()
	}
	if err := run.CheckMemory(p, r.Deps.Outputs, avail); err != nil {
		return nil, err
	}
	if err := run.Preflight(ctx, p, r.Deps); err != nil {
		return nil, err
	}
	if r.Started != nil {
		stop, err := r.Started()
		if err != nil {
			return nil, err
		}
		defer stop()
	}
	exec := run.Execute
	if r.Execute != nil {
		exec = r.Execute
	}
	res, err := exec(ctx, p, r.Deps)
	if res != nil && res.SummaryJSON != nil && r.Show != nil {
		if perr := r.Show(res); err == nil {
			err = perr
		}
	}
	return res, err
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
