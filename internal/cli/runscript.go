package cli

import (
	"context"
	"errors"
	"fmt"

	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/output/summary"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/runconfig"
	"github.com/stampede-bench/stampede/internal/threshold"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/k6js"
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
	for _, n := range []string{"rate", "executor", "time-unit", "max-vus"} {
		if fs.Changed(n) {
			return usagef("--%s does not apply to a k6 script: set executors in options.scenarios, as in k6", n)
		}
	}
	var fc *runconfig.File
	if f.config != "" {
		var err error
		if fc, err = runconfig.Load(ctx, f.config); err != nil {
			return err
		}
		if len(fc.Scenarios) > 0 {
			return usagef("config %s: scenarios do not apply to a k6 script (the script's options.scenarios do)", f.config)
		}
	}
	var ov k6js.Overrides
	if fs.Changed("vus") {
		ov.VUs = &f.vus
	}
	if fs.Changed("duration") {
		ov.Duration = &f.duration
	}
	if fs.Changed("iterations") {
		ov.Iterations = &f.iterations
	}
	for _, s := range f.stages {
		st, err := parseStage(s)
		if err != nil {
			return err
		}
		ov.Stages = append(ov.Stages, st)
	}
	extraSpecs := append([]string(nil), f.thresholds...)
	var extra []threshold.Threshold
	if fc != nil && !fs.Changed("threshold") {
		extraSpecs = append(extraSpecs, fc.Thresholds.Specs...)
		extra = append(extra, fc.Thresholds.K6...)
	}
	parsed, err := threshold.ParseAll(extraSpecs)
	if err != nil {
		return asUsage(err)
	}
	extra = append(extra, parsed...)
	if err := f.k6.check(); err != nil {
		return err
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var abortedBy atomic.Pointer[string]
	fam, err := k6js.Prepare(args[0], k6js.Config{
		Overrides: ov, Env: f.k6.vars(), Getenv: env.Getenv, Stderr: env.Stderr,
		Abort: func(reason string) {
			abortedBy.CompareAndSwap(nil, &reason)
			cancel(errors.New(reason))
		},
		Thresholds: extra, UserAgent: f.k6.userAgent, InsecureSkipTLSVerify: f.k6.insecure,
		Timeout: f.timeout,
	})
	if err != nil {
		return asUsage(err)
	}
	scripted := fam.ScenarioList()
	names := make([]string, len(scripted))
	for i, s := range scripted {
		names[i] = s.Name
	}
	noThresholdFlags := *f
	noThresholdFlags.thresholds = nil
	plan, err := buildPlan(planInput{
		flags: &noThresholdFlags, changed: fs.Changed, catalog: workload.NewCatalog(fam), outputs: env.Outputs,
		args: names, commandLine: env.args, workloadOptions: map[string]string{"script": args[0]},
		getenv: env.Getenv, now: time.Now(),
	})
	if err != nil {
		return err
	}
	for i := range plan.Scenarios {
		c := scripted[i].Config
		if fs.Changed("graceful-stop") {
			c.GracefulStop = f.gracefulStp
		}
		if fs.Changed("warmup") {
			c.Warmup = f.warmup
		}
		plan.Scenarios[i].Config = c
	}
	if plan, err = plan.WithSegment(plan.Segment); err != nil { // the script's executors, scaled like built-in ones
		return err
	}
	plan.Concurrent = len(plan.Scenarios) > 1
	var specs []string
	for _, t := range append(append([]threshold.Threshold(nil), fam.Thresholds()...), extra...) {
		specs = append(specs, t.String())
	}
	if plan.Thresholds, err = run.ParseThresholds(specs); err != nil {
		return err
	}
	opts := fam.Options()
	if !fs.Changed("summary-trend-stats") && len(opts.SummaryTrendStats) > 0 {
		st, err := summary.ParseTrendStats(strings.Join(opts.SummaryTrendStats, ","))
		if err != nil {
			return usagef("%s: summaryTrendStats: %v", args[0], err)
		}
		plan.TrendStats = st
	}
	if len(opts.Tags) > 0 {
		tags := map[string]string{}
		for k, v := range opts.Tags {
			tags[k] = v
		}
		for k, v := range plan.Tags {
			tags[k] = v
		}
		plan.Tags = tags
	}
	if err := run.CheckMemory(plan, env.outputs(), run.AvailableMemory()); err != nil {
		return err
	}
	deps := runDeps(env, f)
	if err := fromRun(run.Preflight(ctx, plan, deps)); err != nil {
		return err
	}
	abortTs := append(append([]threshold.Threshold(nil), fam.Thresholds()...), extra...)
	var thresholdAbort atomic.Pointer[string]
	if delay, ok := threshold.AbortAt(abortTs); ok && !f.k6.noThresholds {
		inner := deps.Display
		deps.Display = func(w run.Watch) run.Display {
			return run.AbortOnFail(inner(w), w, abortTs, delay, func(reason string) {
				thresholdAbort.CompareAndSwap(nil, &reason)
				cancel(errors.New(reason))
			})
		}
	}
	handle := fam.HasHandleSummary()
	res, err := run.Execute(runCtx, plan, deps)
	if err != nil {
		if res == nil {
			return fromRun(err)
		}
	}
	if handle && res != nil && res.SummaryJSON != nil {
		if _, herr := fam.HandleSummary(res.SummaryJSON, env.Stdout, env.Stderr); herr != nil {
			fmt.Fprintf(env.Stderr, "stampede: %v\n", herr)
			if err == nil {
				err = herr
			}
		}
	} else if perr := showSummary(env, f, res); err == nil {
		err = perr
	}
	if err != nil {
		return fromRun(err)
	}
	switch {
	case thresholdAbort.Load() != nil:
		return &ExitError{Code: ExitThresholdsFailed, Msg: "some thresholds have failed (" + *thresholdAbort.Load() + ")"}
	case abortedBy.Load() != nil:
		return &ExitError{Code: ExitScriptAborted, Msg: "test aborted by the script: " + *abortedBy.Load()}
	case res.Interrupted:
		return &ExitError{Code: ExitInterrupted, Msg: "interrupted: results cover the run until the stop"}
	case res.ThresholdsFailed:
		return &ExitError{Code: ExitThresholdsFailed, Msg: "some thresholds have failed"}
	}
	return nil
}
