package cli

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/profile"
	"github.com/stampede-bench/stampede/internal/result/finish"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/run/liveline"
	"github.com/stampede-bench/stampede/internal/runconfig"
	"github.com/stampede-bench/stampede/internal/termio"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/plan"
)

// runRun is `stampede run`: translate the flags into a plan, check it, then
// run it once or --repeat times.
func runRun(ctx context.Context, env *Env, f *runFlags, catalog *workload.Catalog, fs *pflag.FlagSet, args []string) error {
	if isScriptRun(args) {
		return runScript(ctx, env, f, fs, args)
	}
	plan, err := planFromFlags(ctx, env, f, catalog, fs, args, env.args)
	if err != nil {
		return err
	}
	return runPlanned(ctx, env, f, plan)
}

// planFromFlags loads --config into the flags it sets and translates the
// flags into a plan. commandLine is what options.json records.
func planFromFlags(ctx context.Context, env *Env, f *runFlags, catalog *workload.Catalog, fs *pflag.FlagSet, args, commandLine []string) (run.Plan, error) {
	var fc *runconfig.File
	if f.config != "" {
		var err error
		if fc, err = runconfig.Load(ctx, f.config); err != nil {
			return run.Plan{}, err
		}
		if err := fc.ApplyOptions(fs); err != nil {
			return run.Plan{}, err
		}
	}
	return buildPlan(planInput{
		flags: f, changed: fs.Changed, catalog: catalog, outputs: env.Outputs, fileCfg: fc, args: args,
		commandLine: commandLine, workloadOptions: f.familyFlags(fs),
		getenv: env.Getenv, now: time.Now(),
	})
}

// runPlanned checks plan against this machine and its targets, then runs
// it once or --repeat times, showing progress and summaries as the flags
// say.
func runPlanned(ctx context.Context, env *Env, f *runFlags, plan run.Plan) error {
	if err := run.CheckMemory(plan, env.outputs(), run.AvailableMemory()); err != nil {
		return err
	}
	if err := fromRun(run.Preflight(ctx, plan, runDeps(env, f))); err != nil {
		return err
	}
	stop, err := selfProfile(f.selfProf)
	if err != nil {
		return err
	}
	defer stop()
	if plan.Repeat <= 1 {
		return executePlan(ctx, env, f, plan)
	}
	var info io.Writer
	if !f.quiet {
		info = env.Stderr
	}
	var runFailed string // the first failed run's one line (verdict)
	failed, err := run.Repeat(ctx, plan, runDeps(env, f), run.RepeatOptions{
		Cooldown: f.cooldown, Info: info, Show: func(res *run.Result) error {
			if res != nil && res.Verdict.Failed() && runFailed == "" {
				runFailed = res.Verdict.FailLine()
			}
			return showSummary(env, f, res)
		},
	})
	switch {
	case err != nil:
		return fromRun(err)
	case runFailed != "":
		return &ExitError{Code: ExitRunError, Msg: runFailed}
	case failed:
		return &ExitError{Code: ExitThresholdsFailed, Msg: "some thresholds have failed"}
	}
	return nil
}

// runMeasured runs plan with runPlanned, sampling the generator's CPU into
// the result directory when the run wrote no self-check (run.Measured).
func runMeasured(ctx context.Context, env *Env, f *runFlags, plan run.Plan) error {
	return run.Measured(plan.Out, func() error { return runPlanned(ctx, env, f, plan) })
}

// ExitInterrupted is the exit code after Ctrl+C (128 + SIGINT).
const ExitInterrupted = 130

// runDeps are the run's dependencies on this process, with messages as
// the display flags say.
func runDeps(env *Env, f *runFlags) run.Deps {
	d := run.Deps{Deps: plan.Deps{
		Outputs: env.outputs(), Getenv: env.Getenv, Log: env.Stderr, Warn: env.Stderr,
		StdoutTTY: termio.IsTerminal(env.Stdout),
	}}
	if d.StdoutTTY {
		d.ConsoleWidth = termio.Width(env.Stdout, env.Getenv)
	}
	if f.quiet {
		d.Log = nil
	}
	if !f.quiet && !f.json {
		d.Info = env.Stderr
		if termio.IsTerminal(env.Stderr) {
			d.ProgressBars = env.Stderr // progress bars only on a terminal
		}
	}
	quiet := f.quiet || f.json
	d.Display = func(w run.Watch) run.Display { return liveline.New(env.Stderr, w, quiet) }
	return d
}

// executePlan runs plan once, prints its summary as the flags say and
// maps the outcome to an exit code.
func executePlan(ctx context.Context, env *Env, f *runFlags, plan run.Plan) error {
	res, err := run.Execute(ctx, plan, runDeps(env, f))
	if perr := showSummary(env, f, res); err == nil {
		err = perr
	}
	if err != nil {
		return fromRun(err)
	}
	switch {
	case res.Interrupted:
		return &ExitError{Code: ExitInterrupted, Msg: "interrupted: results cover the run until the stop"}
	case res.Verdict.Failed():
		// A scenario with no successful operation (or wrong answers)
		// measured nothing to pass on: a run error, before thresholds.
		return &ExitError{Code: ExitRunError, Msg: res.Verdict.FailLine()}
	case res.ThresholdsFailed:
		return &ExitError{Code: ExitThresholdsFailed, Msg: "some thresholds have failed"}
	}
	return nil
}

// showSummary prints the summary of a run on stdout as the flags say:
// none (--no-summary), summary.json (--json) or the console summary
// (run.Result.Show; nothing when res is nil).
func showSummary(env *Env, f *runFlags, res *run.Result) error {
	show := finish.PrintText
	switch {
	case f.k6.quietSummary():
		show = finish.PrintNone
	case f.json:
		show = finish.PrintJSON
	}
	return res.Show(env.Stdout, show, finish.UseColor(termio.IsTerminal(env.Stdout), f.noColor, env.Getenv))
}

// selfProfile starts --self-profile FILE, stampede's own CPU profile
// (none without FILE); a file that cannot be made is a usage error.
func selfProfile(path string) (stop func(), err error) {
	stop, err = profile.StartSelf(path)
	if err != nil {
		return nil, usagef("--self-profile: %v", err)
	}
	return stop, nil
}

// fromRun maps an error of package run to the command's errors: usage
// errors exit 2, an interruption 130.
func fromRun(err error) error {
	var ie *run.InterruptedError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ie):
		return &ExitError{Code: ExitInterrupted, Msg: ie.Msg}
	case usage.Is(err):
		return asUsage(err)
	}
	return err
}

// planFromRunArgs parses args, the arguments of `stampede run` (scenarios
// and run flags, as in a Kubernetes manifest), into a plan without cobra.
// commandLine is what options.json records.
func planFromRunArgs(env *Env, args, commandLine []string) (*runFlags, run.Plan, error) {
	f, catalog := &runFlags{}, env.catalog()
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs, catalog)
	if err := fs.Parse(args); err != nil {
		return nil, run.Plan{}, asUsage(err)
	}
	if err := applyEnv(fs, env.Getenv); err != nil {
		return nil, run.Plan{}, err
	}
	plan, err := planFromFlags(context.Background(), env, f, catalog, fs, fs.Args(), commandLine)
	return f, plan, err
}
