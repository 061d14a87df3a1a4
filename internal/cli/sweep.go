package cli

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/plugins"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/run"
	runsweep "github.com/stampede-bench/stampede/internal/run/sweep"
	"github.com/stampede-bench/stampede/internal/runconfig"
	"github.com/stampede-bench/stampede/internal/workload"
)

// sweepFlags are the options of `stampede sweep` that are not run flags.
type sweepFlags struct {
	vus, rate, nodes, targets string
	beforeStep                string
	hookTimeout               time.Duration
	pause                     time.Duration
	out                       string
	from                      string
	minGain, maxP99           float64
	minEff                    float64
}

// sweepOwnFlags are run flags that sweep replaces or does not pass on.
var sweepOwnFlags = map[string]bool{
	"vus": true, "rate": true, "out": true, "segment": true, "start-at": true,
	"repeat": true, "cooldown": true, "json": true, "help": true,
}

func newSweepCmd(env *Env) *cobra.Command {
	f := &sweepFlags{}
	rf, catalog := &runFlags{}, env.catalog() // the run flags of each step
	template := pflag.NewFlagSet("run", pflag.ContinueOnError)
	rf.register(template, catalog)
	cmd := &cobra.Command{
		Use:     "sweep [SCENARIO...] --vus LIST | --rate LIST | --nodes LIST | --targets LIST",
		Short:   "Run a workload at increasing load or cluster size and find where it saturates",
		Long:    plugins.SweepLong,
		Example: plugins.SweepExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := runconfig.ApplyEnv(template, env.Getenv, "STAMPEDE_", func(name string) bool { return !sweepOwnFlags[name] }); err != nil {
				return err
			}
			return runSweep(cmd.Context(), env, f, sweepRun{flags: rf, fs: template, catalog: catalog}, cmd.Flags(), args)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.vus, "vus", "u", "", "VUs per step, e.g. 50,100,200,300,500 (or one value kept for every step)")
	fs.StringVar(&f.rate, "rate", "", "arrival rate per step, e.g. 1000,2000,4000 (or one value kept for every step)")
	fs.StringVar(&f.nodes, "nodes", "", "cluster sizes, e.g. 1,3,5 (needs --before-step or --targets)")
	fs.StringVar(&f.targets, "targets", "", "target URLs separated by spaces, one per step (with --nodes: one per size)")
	fs.StringVar(&f.beforeStep, "before-step", "", "command run by sh -c before each step, with {nodes} {step} {value} {target} substituted; must exit 0")
	fs.DurationVar(&f.hookTimeout, "before-step-timeout", 30*time.Minute, "longest a --before-step command may take")
	fs.DurationVar(&f.pause, "pause", 0, "pause between steps (after the hook), e.g. to let a cluster settle")
	fs.StringVar(&f.out, "out", "", "parent directory of the steps' result directories (default stampede-results/sweep-TIMESTAMP)")
	fs.StringVar(&f.from, "from", "", "analyse the finished sweep in this directory instead of running one")
	fs.Float64Var(&f.minGain, "knee-gain", sweep.DefaultRule.MinGain, "knee rule: throughput growth below this fraction…")
	fs.Float64Var(&f.maxP99, "knee-p99", sweep.DefaultRule.MaxP99Growth, "…while p99 grows above this fraction")
	fs.Float64Var(&f.minEff, "min-efficiency", sweep.DefaultRule.MinEfficiency, "node sweeps: scaling efficiency below this is sub-linear")
	template.VisitAll(func(fl *pflag.Flag) {
		if !sweepOwnFlags[fl.Name] && fs.Lookup(fl.Name) == nil {
			fs.AddFlag(fl)
		}
	})
	return cmd
}

// sweepRun are the run flags of a sweep, passed to each step.
type sweepRun struct {
	flags   *runFlags
	fs      *pflag.FlagSet // the run flags, also parsed by the sweep
	catalog *workload.Catalog
}

func runSweep(ctx context.Context, env *Env, f *sweepFlags, rs sweepRun, fs *pflag.FlagSet, scenarios []string) error {
	rule := sweep.Rule{MinGain: f.minGain, MaxP99Growth: f.maxP99, MinEfficiency: f.minEff}
	if f.from != "" {
		dirs, err := resultdir.Find(f.from)
		if err != nil {
			return asUsage(err)
		}
		return runsweep.Analyse(f.from, dirs, rule, noReportFlag(fs), env.Stdout, env.Stderr)
	}
	steps, parent, err := runsweep.Plan(runsweep.Dims{VUs: f.vus, Rate: f.rate, Nodes: f.nodes, Targets: f.targets,
		BeforeStep: f.beforeStep, Out: f.out, TargetGiven: fs.Changed("target")}, rs.catalog, scenarios, checkTarget, time.Now())
	if err != nil {
		return err
	}
	sw := runsweep.Sweep{
		Parent: parent, Steps: steps, BeforeStep: f.beforeStep, HookTimeout: f.hookTimeout, Pause: f.pause,
		Rule: rule, NoReport: noReportFlag(fs),
	}
	if isScriptRun(scenarios) {
		return sweepScript(ctx, env, sw, rs, scenarios)
	}
	var fc *runconfig.File
	if rs.flags.config != "" {
		if fc, err = runconfig.Load(ctx, rs.flags.config); err != nil {
			return err
		}
		if err := fc.ApplyOptions(rs.fs); err != nil {
			return err
		}
	}
	return sweepOutcome(runsweep.Execute(ctx, sw, sweepRunner(env, rs, fc, scenarios, quietSweep(fs))))
}

// sweepOutcome is the exit of a finished sweep.
func sweepOutcome(out runsweep.Outcome, err error) error {
	switch {
	case err != nil:
		return fromRun(err)
	case out.ThresholdsFailed:
		return &ExitError{Code: ExitThresholdsFailed, Msg: "some thresholds have failed in at least one step"}
	}
	return nil
}

// sweepScript sweeps a k6 script: each step is `stampede run SCRIPT -u N`
// (or the step's cluster size, prepared by --before-step) with the other
// run flags. A step that the script aborts (test.abort(), an abortOnFail
// threshold) ends the sweep with k6's exit code; the steps done are
// analysed.
func sweepScript(ctx context.Context, env *Env, sw runsweep.Sweep, rs sweepRun, args []string) error {
	if len(args) != 1 {
		return usagef("stampede sweep takes one k6 script, or scenario names, not both (got %s)", strings.Join(args, " "))
	}
	switch sw.Steps[0].Dim {
	case sweep.DimRate:
		return usagef("sweep --rate does not apply to a k6 script (its arrival rates are in options.scenarios): sweep --vus, or --nodes with --before-step")
	case sweep.DimTarget:
		return usagef("sweep --targets does not apply to a k6 script (its URLs are in the script; pass one with -e): sweep --vus, or --nodes with --before-step")
	}
	if sw.Steps[0].ResizeFlag != "" {
		return usagef("sweep --nodes of a k6 script needs --before-step to resize the cluster")
	}
	f := *rs.flags // the display flags of every step
	f.json, f.repeat = false, 1
	var cur *scriptRun // the step being run
	defer func() {
		if cur != nil {
			cur.cancel(nil)
		}
	}()
	r := runsweep.Runner{
		Plan: func(st runsweep.Step) (run.Plan, error) {
			if cur != nil {
				cur.cancel(nil)
			}
			sf := *rs.flags // the step's copy of the run flags
			set := map[string]bool{}
			if st.VUs > 0 {
				sf.vus, set["vus"] = st.VUs, true
			}
			sf.out = []string{st.Dir}
			sf.json, sf.repeat = false, 1
			sr, err := prepareScript(ctx, env, &sf, func(n string) bool { return set[n] || rs.fs.Changed(n) }, args[0])
			if err != nil {
				return run.Plan{}, err
			}
			cur = sr
			return sr.plan, nil
		},
		Execute: func(_ context.Context, p run.Plan, deps run.Deps) (*run.Result, error) {
			res, err := cur.execute(p, deps)
			if err != nil || res == nil {
				return res, err
			}
			if cur.thresholdAbort.Load() != nil || cur.abortedBy.Load() != nil {
				return res, cur.outcome(res)
			}
			return res, nil
		},
		Deps: runDeps(env, &f), AvailableMemory: run.AvailableMemory,
		Started: func() (func(), error) { return selfProfile(f.selfProf) },
		Show:    func(res *run.Result) error { return cur.show(env, &f, res) },
		Stdout:  env.Stdout, Stderr: env.Stderr, Quiet: f.quiet,
	}
	return sweepOutcome(runsweep.Execute(ctx, sw, r))
}

// sweepRunner runs each step of a sweep as `stampede run` would with the
// run flags of rs: its plan from the flags and the step, its checks, its
// progress and summary.
func sweepRunner(env *Env, rs sweepRun, fc *runconfig.File, scenarios []string, quiet bool) runsweep.Runner {
	f := *rs.flags // the display flags of every step
	f.json, f.repeat = false, 1
	return runsweep.Runner{
		Plan: func(st runsweep.Step) (run.Plan, error) { return sweepStepPlan(env, rs, fc, scenarios, st) },
		Deps: runDeps(env, &f), AvailableMemory: run.AvailableMemory,
		Started: func() (func(), error) { return selfProfile(f.selfProf) },
		Show:    func(res *run.Result) error { return showSummary(env, &f, res) },
		Stdout:  env.Stdout, Stderr: env.Stderr, Quiet: quiet,
	}
}

// sweepStepPlan translates the run flags with the changes of step st
// into the step's plan.
func sweepStepPlan(env *Env, rs sweepRun, fc *runconfig.File, scenarios []string, st runsweep.Step) (run.Plan, error) {
	f := *rs.flags // the step's copy of the run flags
	set := map[string]bool{}
	if st.VUs > 0 {
		f.vus, set["vus"] = st.VUs, true
	}
	if st.Rate > 0 {
		f.rate, set["rate"] = st.Rate, true
	}
	if st.Target != "" {
		f.target, set["target"] = st.Target, true
	}
	if st.ResizeFlag != "" {
		if err := rs.fs.Set(st.ResizeFlag, st.Nodes); err != nil {
			return run.Plan{}, asUsage(err)
		}
	}
	f.out = []string{st.Dir}
	f.json, f.repeat = false, 1
	return buildPlan(planInput{
		flags: &f, changed: func(n string) bool { return set[n] || rs.fs.Changed(n) }, catalog: rs.catalog, outputs: env.Outputs,
		fileCfg: fc, args: scenarios, commandLine: env.args, workloadOptions: f.familyFlags(rs.fs),
		getenv: env.Getenv, now: time.Now(),
	})
}

func noReportFlag(fs *pflag.FlagSet) bool {
	v, _ := fs.GetBool("no-report")
	return v
}

func quietSweep(fs *pflag.FlagSet) bool {
	q, _ := fs.GetBool("quiet")
	return q
}

// checkTarget checks a --targets URL against the drivers.
func checkTarget(t string) error {
	_, err := newDrivers().ParseTarget(t)
	return err
}
