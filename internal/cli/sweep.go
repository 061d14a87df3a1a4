package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/run"
	runsweep "github.com/stampede-bench/stampede/internal/run/sweep"
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
		Use:   "sweep [SCENARIO...] --vus LIST | --rate LIST | --nodes LIST | --targets LIST",
		Short: "Run a workload at increasing load or cluster size and find where it saturates",
		Long: `Run the same workload once per step of one dimension and analyse the curve:

  --vus 50,100,200,300,500        closed model, VUs per step (nebula-bench's levels)
  --rate 1000,2000,4000           open model, iterations per --time-unit per step
  --nodes 1,3,5 --before-step CMD cluster sizes; CMD ({nodes}, {step}, {value},
                                  {target} substituted, run by sh -c) must resize
                                  the cluster and finish before the step starts
  --targets 'URL1 URL2'           one target per step, separated by spaces (with
                                  --nodes: one per size)

Each step is a normal "stampede run" in its own result directory
PARENT/step-NN-VALUE (--out PARENT, default stampede-results/sweep-TIMESTAMP);
every other run flag (-d, --executor, --target, --threshold, workload flags...)
is passed to each step. Afterwards sweep prints a table per scenario — load,
throughput, p50, p99, errors, Little's-law concurrency L = throughput × mean
iteration time against the configured VUs, generator CPU — names the knee
(the first step where throughput grows less than 10% while p99 grows more
than 50%) and says whether the client or the target saturated first. Node
sweeps add throughput per node and scaling efficiency against the smallest
cluster. The analysis is written to PARENT/sweep.json and sweep.txt, the
curves (throughput vs load, latency vs throughput, per node) to
PARENT/report.html unless --no-report;
--from PARENT re-analyses a finished sweep without running it.

A failing --before-step ends the sweep with exit code 1; the steps already
done are kept and analysed.`,
		Example: `  stampede sweep go.Go1Step --vus 50,100,200,300,500 -d 30s --target postgres://bench@db/ldbc
  stampede sweep http.Request --rate 1000,2000,4000,8000 -d 20s --target http://10.0.0.5:8080/
  stampede sweep go.Go2Step --nodes 1,3,5 --before-step 'ansible-playbook resize.yml -e nodes={nodes}' --target postgres://db/ldbc
  stampede sweep --from stampede-results/sweep-2025-01-02T15-04-05`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := applyEnvExcept(template, env.Getenv, sweepOwnFlags); err != nil {
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
	steps, err := planSweep(f, scenarios)
	if err != nil {
		return err
	}
	if err := refuseStandInNodes(steps, fs.Changed("target"), scenarios); err != nil {
		return err
	}
	sw := runsweep.Sweep{
		Parent: f.out, Steps: steps, BeforeStep: f.beforeStep, HookTimeout: f.hookTimeout, Pause: f.pause,
		Rule: rule, NoReport: noReportFlag(fs),
	}
	if isScriptRun(scenarios) {
		return sweepScript(ctx, env, sw, rs, scenarios)
	}
	var fc *fileConfig
	if rs.flags.config != "" {
		if fc, err = loadConfig(ctx, rs.flags.config); err != nil {
			return err
		}
		if err := applyConfigOptions(rs.fs, fc); err != nil {
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
	if sw.Steps[0].Resize {
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
func sweepRunner(env *Env, rs sweepRun, fc *fileConfig, scenarios []string, quiet bool) runsweep.Runner {
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
func sweepStepPlan(env *Env, rs sweepRun, fc *fileConfig, scenarios []string, st runsweep.Step) (run.Plan, error) {
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
	if st.Resize {
		if err := rs.fs.Set(strings.TrimPrefix(embeddedNodesFlag, "--"), st.Nodes); err != nil {
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

// planSweep validates the dimension flags and lays out the steps.
func planSweep(f *sweepFlags, scenarios []string) ([]runsweep.Step, error) {
	vus, err := parseIntList("--vus", f.vus)
	if err != nil {
		return nil, err
	}
	rates, err := parseIntList("--rate", f.rate)
	if err != nil {
		return nil, err
	}
	nodes, err := parseIntList("--nodes", f.nodes)
	if err != nil {
		return nil, err
	}
	var targets []string
	if f.targets != "" {
		list, err := splitTargets(f.targets)
		if err != nil {
			return nil, err
		}
		for _, t := range list {
			if _, err := newDrivers().ParseTarget(t); err != nil {
				return nil, asUsage(fmt.Errorf("--targets: %w", err))
			}
			targets = append(targets, t)
		}
	}
	var dim string
	var values []string
	resize := false
	switch {
	case len(nodes) > 0:
		dim = sweep.DimNodes
		resize = f.beforeStep == "" && len(targets) == 0 && resizesItself(scenarios)
		if f.beforeStep == "" && len(targets) == 0 && !resize {
			return nil, usagef("--nodes needs --before-step 'CMD {nodes}' to resize the cluster, or --targets with one URL per size (nats.* scenarios resize their embedded cluster themselves)")
		}
		if len(targets) > 0 && len(targets) != len(nodes) {
			return nil, usagef("--nodes has %d sizes but --targets %d URLs; give one URL per size", len(nodes), len(targets))
		}
		values = itoaAll(nodes)
	case len(targets) > 0:
		dim, values = sweep.DimTarget, targets
	case len(rates) > 1 || (len(rates) == 1 && len(vus) <= 1):
		dim, values = sweep.DimRate, itoaAll(rates)
	case len(vus) > 0:
		dim, values = sweep.DimVUs, itoaAll(vus)
	default:
		return nil, usagef("nothing to sweep: give --vus 50,100,200, --rate 1000,2000, --nodes 1,3,5 or --targets 'URL URL'")
	}
	if (dim != sweep.DimVUs && len(vus) > 1) || (dim != sweep.DimRate && len(rates) > 1) {
		return nil, usagef("sweep one dimension at a time: %s varies, so --vus and --rate take one value", dim)
	}
	if f.out == "" {
		f.out = filepath.Join("stampede-results", "sweep-"+resultdir.StampName(time.Now()))
	}
	var steps []runsweep.Step
	for i, v := range values {
		st := runsweep.NewStep(f.out, i+1, dim, v)
		switch dim {
		case sweep.DimVUs:
			st.VUs = int64(vus[i])
		case sweep.DimRate:
			st.Rate = int64(rates[i])
		case sweep.DimNodes:
			st.Resize = resize
			if len(targets) > 0 {
				st.Target = targets[i]
			}
		}
		if dim != sweep.DimVUs && len(vus) == 1 {
			st.VUs = int64(vus[0])
		}
		if dim != sweep.DimRate && len(rates) == 1 {
			st.Rate = int64(rates[0])
		}
		if resultdir.IsResult(st.Dir) {
			return nil, usagef("%s already holds a run: choose another --out for the sweep", st.Dir)
		}
		steps = append(steps, st)
	}
	return steps, nil
}

func noReportFlag(fs *pflag.FlagSet) bool {
	v, _ := fs.GetBool("no-report")
	return v
}

func quietSweep(fs *pflag.FlagSet) bool {
	q, _ := fs.GetBool("quiet")
	return q
}

func parseIntList(flag, s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 {
			return nil, usagef("%s: %q is not a whole number ≥ 1 (want a list like 50,100,200)", flag, part)
		}
		out = append(out, n)
	}
	return out, nil
}

func itoaAll(ns []int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return out
}
