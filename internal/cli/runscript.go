package cli

import (
	"context"
	"errors"
	"fmt"

	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/result/summary"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/runconfig"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/k6js"
	"github.com/stampede-bench/stampede/threshold"
)

// ExitScriptAborted is k6's exit code after test.abort() in a script.
const ExitScriptAborted = 108

// isScriptRun reports whether `stampede run` was given a k6 script.
func isScriptRun(args []string) bool {
	for _, a := range args {
		if k6js.IsScript(a) {
			return true
		}
	}
	return false
}

// runScript is `stampede run SCRIPT.js`: the script's options make the
// plan (command-line flags override them as in k6), its scenarios run on
// the engine, its thresholds and handleSummary apply.
func runScript(ctx context.Context, env *Env, f *runFlags, fs *pflag.FlagSet, args []string) error {
	if len(args) != 1 {
		return usagef("stampede run takes one k6 script, or scenario names, not both (got %s)", strings.Join(args, " "))
	}
	sr, err := prepareScript(ctx, env, f, fs.Changed, args[0])
	if err != nil {
		return err
	}
	defer sr.cancel(nil)
	if err := run.CheckMemory(sr.plan, env.outputs(), run.AvailableMemory()); err != nil {
		return err
	}
	deps := runDeps(env, f)
	if err := fromRun(run.Preflight(ctx, sr.plan, deps)); err != nil {
		return err
	}
	res, err := sr.execute(sr.plan, deps)
	if err != nil && res == nil {
		return fromRun(err)
	}
	if serr := sr.show(env, f, res); err == nil {
		err = serr
	}
	if err != nil {
		return fromRun(err)
	}
	return sr.outcome(res)
}

// scriptRun is a k6 script prepared to run once: its family, its plan
// and what its aborts (test.abort(), abortOnFail) set.
type scriptRun struct {
	script string
	fam    *k6js.Family
	plan   run.Plan
	// abortTs are the thresholds whose abortOnFail is watched.
	abortTs      []threshold.Threshold
	noThresholds bool
	// ctx is the run's context, ended by cancel (an abort).
	ctx    context.Context
	cancel context.CancelCauseFunc
	// abortedBy is test.abort()'s reason, thresholdAbort abortOnFail's.
	abortedBy, thresholdAbort atomic.Pointer[string]
}

// prepareScript reads the k6 script and the run flags f (changed tells
// which were given) into its plan, refusing what does not apply to a
// script. The run's context derives from ctx.
func prepareScript(ctx context.Context, env *Env, f *runFlags, changed func(string) bool, script string) (*scriptRun, error) {
	for _, n := range []string{"rate", "executor", "time-unit", "max-vus"} {
		if changed(n) {
			return nil, usagef("--%s does not apply to a k6 script: set executors in options.scenarios, as in k6", n)
		}
	}
	var fc *runconfig.File
	if f.config != "" {
		var err error
		if fc, err = runconfig.Load(ctx, f.config); err != nil {
			return nil, err
		}
		if len(fc.Scenarios) > 0 {
			return nil, usagef("config %s: scenarios do not apply to a k6 script (the script's options.scenarios do)", f.config)
		}
	}
	var ov k6js.Overrides
	if changed("vus") {
		ov.VUs = &f.vus
	}
	if changed("duration") {
		ov.Duration = &f.duration
	}
	if changed("iterations") {
		ov.Iterations = &f.iterations
	}
	for _, s := range f.stages {
		st, err := parseStage(s)
		if err != nil {
			return nil, err
		}
		ov.Stages = append(ov.Stages, st)
	}
	extraSpecs := append([]string(nil), f.thresholds...)
	var extra []threshold.Threshold
	if fc != nil && !changed("threshold") {
		extraSpecs = append(extraSpecs, fc.Thresholds.Specs...)
		extra = append(extra, fc.Thresholds.K6...)
	}
	parsed, err := threshold.ParseAll(extraSpecs)
	if err != nil {
		return nil, asUsage(err)
	}
	extra = append(extra, parsed...)
	if err := f.k6.check(); err != nil {
		return nil, err
	}
	sr := &scriptRun{script: script, noThresholds: f.k6.noThresholds}
	sr.ctx, sr.cancel = context.WithCancelCause(ctx)
	fam, err := k6js.Prepare(script, k6js.Config{
		Overrides: ov, Env: f.k6.vars(), Getenv: env.Getenv, Stderr: env.Stderr,
		Abort: func(reason string) {
			sr.abortedBy.CompareAndSwap(nil, &reason)
			sr.cancel(errors.New(reason))
		},
		Thresholds: extra, UserAgent: f.k6.userAgent, InsecureSkipTLSVerify: f.k6.insecure,
		Timeout: f.timeout,
	})
	if err != nil {
		sr.cancel(nil)
		return nil, asUsage(err)
	}
	sr.fam = fam
	if sr.plan, err = scriptPlan(env, f, changed, script, fam, extra); err != nil {
		sr.cancel(nil)
		return nil, err
	}
	sr.abortTs = append(append([]threshold.Threshold(nil), fam.Thresholds()...), extra...)
	return sr, nil
}

// scriptPlan is the plan of the script's family fam from the run flags:
// the script's scenarios with their executors (segment-scaled like
// built-in ones), its thresholds and extra ones, summaryTrendStats, tags.
func scriptPlan(env *Env, f *runFlags, changed func(string) bool, script string, fam *k6js.Family, extra []threshold.Threshold) (run.Plan, error) {
	scripted := fam.ScenarioList()
	names := make([]string, len(scripted))
	for i, s := range scripted {
		names[i] = s.Name
	}
	noThresholdFlags := *f
	noThresholdFlags.thresholds = nil
	plan, err := buildPlan(planInput{
		flags: &noThresholdFlags, changed: changed, catalog: workload.NewCatalog(fam), outputs: env.Outputs,
		args: names, commandLine: env.args, workloadOptions: map[string]string{"script": script},
		getenv: env.Getenv, now: time.Now(),
	})
	if err != nil {
		return run.Plan{}, err
	}
	so := run.ScriptOptions{Thresholds: append(append([]threshold.Threshold(nil), fam.Thresholds()...), extra...), Tags: fam.Options().Tags}
	for _, sc := range scripted {
		c := sc.Config
		if changed("graceful-stop") {
			c.GracefulStop = f.gracefulStp
		}
		if changed("warmup") {
			c.Warmup = f.warmup
		}
		so.Configs = append(so.Configs, c)
	}
	if st := fam.Options().SummaryTrendStats; !changed("summary-trend-stats") && len(st) > 0 {
		if so.TrendStats, err = summary.ParseTrendStats(strings.Join(st, ",")); err != nil {
			return run.Plan{}, usagef("%s: summaryTrendStats: %v", script, err)
		}
	}
	return plan.WithScript(so)
}

// execute runs plan p (the script's, checked) with deps, watching the
// abortOnFail thresholds on the live measurements.
func (sr *scriptRun) execute(p run.Plan, deps run.Deps) (*run.Result, error) {
	if delay, ok := threshold.AbortAt(sr.abortTs); ok && !sr.noThresholds {
		inner := deps.Display
		deps.Display = func(w run.Watch) run.Display {
			return run.AbortOnFail(inner(w), w, sr.abortTs, delay, func(reason string) {
				sr.thresholdAbort.CompareAndSwap(nil, &reason)
				sr.cancel(errors.New(reason))
			})
		}
	}
	return run.Execute(sr.ctx, p, deps)
}

// show shows the summary of res: the script's handleSummary(data) when
// it has one, stampede's summary otherwise.
func (sr *scriptRun) show(env *Env, f *runFlags, res *run.Result) error {
	if res == nil {
		return nil
	}
	if sr.fam.HasHandleSummary() && res.SummaryJSON != nil {
		if _, err := sr.fam.HandleSummary(res.SummaryJSON, env.Stdout, env.Stderr); err != nil {
			fmt.Fprintf(env.Stderr, "stampede: %v\n", err)
			return err
		}
		return nil
	}
	return showSummary(env, f, res)
}

// outcome is the exit of a finished run, as k6's: an abortOnFail
// threshold 99, test.abort() 108, an interruption 130, failed thresholds
// 99.
func (sr *scriptRun) outcome(res *run.Result) error {
	switch {
	case sr.thresholdAbort.Load() != nil:
		return &ExitError{Code: ExitThresholdsFailed, Msg: "some thresholds have failed (" + *sr.thresholdAbort.Load() + ")"}
	case sr.abortedBy.Load() != nil:
		return &ExitError{Code: ExitScriptAborted, Msg: "test aborted by the script: " + *sr.abortedBy.Load()}
	case res.Interrupted:
		return &ExitError{Code: ExitInterrupted, Msg: "interrupted: results cover the run until the stop"}
	case res.ThresholdsFailed:
		return &ExitError{Code: ExitThresholdsFailed, Msg: "some thresholds have failed"}
	}
	return nil
}
