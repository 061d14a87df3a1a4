package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/output/report"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/selfcheck"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/version"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Files a sweep writes into its parent directory.
const (
	sweepJSONFile  = "sweep.json"
	sweepTableFile = "sweep.txt"
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
	"repeat": true, "cooldown": true, "json": true, "sweep-info": true, "help": true,
}

// sweepStep is one step of a sweep: what it changes in the run flags.
type sweepStep struct {
	n           int
	dim, value  string
	nodes       string
	target      string // --target of this step ("" keeps the run flags')
	dir         string
	description string
	// vus and rate replace -u/--vus and --rate when > 0.
	vus, rate int64
	// resize sizes the embedded cluster (embeddedNodesFlag) to nodes.
	resize bool
	// info describes the step in options.json (KEY=VALUE).
	info []string
}

func newSweepCmd(env *Env) *cobra.Command {
	f := &sweepFlags{}
	rf, catalog := &runFlags{}, env.catalog() // the run flags of each step
	template := pflag.NewFlagSet("run", pflag.ContinueOnError)
	bindErr := rf.register(template, catalog)
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
			if bindErr != nil {
				return bindErr
			}
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
		return analyseSweep(env, f.from, dirs, rule, noReportFlag(fs))
	}
	steps, err := planSweep(f, scenarios)
	if err != nil {
		return err
	}
	if err := refuseStandInNodes(steps, fs.Changed("target"), scenarios); err != nil {
		return err
	}
	var fc *fileConfig
	if rs.flags.config != "" {
		if fc, err = loadConfig(rs.flags.config); err != nil {
			return err
		}
		if err := applyConfigOptions(rs.fs, fc); err != nil {
			return err
		}
	}
	if !quietSweep(fs) {
		fmt.Fprintf(env.Stderr, "sweep: %d steps of %s into %s\n", len(steps), steps[0].dim, f.out)
	}
	var done []string
	var stepErr error
	thresholdsFailed := false
	for i, st := range steps {
		if ctx.Err() != nil {
			break
		}
		if f.beforeStep != "" {
			if err := runBeforeStep(ctx, env, f, st); err != nil {
				stepErr = &ExitError{Code: ExitRunError, Msg: fmt.Sprintf("sweep: --before-step for %s failed: %v; %d of %d steps done, kept in %s",
					st.description, err, len(done), len(steps), f.out)}
				break
			}
		}
		if i > 0 && f.pause > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(f.pause):
			}
			if ctx.Err() != nil {
				break
			}
		}
		if !quietSweep(fs) {
			fmt.Fprintf(env.Stderr, "\n=== sweep step %d of %d: %s → %s\n", st.n, len(steps), st.description, st.dir)
		}
		err := runSweepStep(ctx, env, rs, fc, scenarios, st)
		if resultdir.IsResult(st.dir) {
			done = append(done, st.dir)
		}
		var ee *ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee) && ee.Code == ExitThresholdsFailed:
			thresholdsFailed = true
		case usage.Is(err) && len(done) == 0:
			return err // bad flags: the same for every step
		case errors.As(err, &ee) && ee.Code == ExitInterrupted:
			stepErr = err
		default:
			stepErr = fmt.Errorf("sweep step %d (%s): %w; %d of %d steps done, kept in %s", st.n, st.description, err, len(done), len(steps), f.out)
		}
		if stepErr != nil {
			break
		}
	}
	if len(done) > 0 {
		if err := analyseSweep(env, f.out, done, rule, noReportFlag(fs)); err != nil && stepErr == nil {
			stepErr = err
		}
	}
	switch {
	case stepErr != nil:
		return stepErr
	case ctx.Err() != nil:
		return &ExitError{Code: ExitInterrupted, Msg: fmt.Sprintf("interrupted: %d of %d steps done, kept in %s", len(done), len(steps), f.out)}
	case thresholdsFailed:
		return &ExitError{Code: ExitThresholdsFailed, Msg: "some thresholds have failed in at least one step"}
	}
	return nil
}

// runSweepStep runs step st of a sweep: the run flags with the step's
// changes, as a plan.
func runSweepStep(ctx context.Context, env *Env, rs sweepRun, fc *fileConfig, scenarios []string, st sweepStep) error {
	f := *rs.flags // the step's copy of the run flags
	set := map[string]bool{}
	if st.vus > 0 {
		f.vus, set["vus"] = st.vus, true
	}
	if st.rate > 0 {
		f.rate, set["rate"] = st.rate, true
	}
	if st.target != "" {
		f.target, set["target"] = st.target, true
	}
	if st.resize {
		if err := rs.fs.Set(strings.TrimPrefix(embeddedNodesFlag, "--"), st.nodes); err != nil {
			return asUsage(err)
		}
	}
	f.out, f.sweepInfo = []string{st.dir}, st.info
	f.json, f.repeat = false, 1
	plan, err := buildPlan(planInput{
		flags: &f, changed: func(n string) bool { return set[n] || rs.fs.Changed(n) }, catalog: rs.catalog,
		fileCfg: fc, args: scenarios, commandLine: env.args, workloadOptions: f.familyFlags(rs.fs),
		getenv: env.Getenv, now: time.Now(),
	})
	if err != nil {
		return err
	}
	return runMeasured(ctx, env, &f, plan)
}

// runMeasured runs plan (with its checks) in this process, sampling the
// generator's CPU; when the run wrote no self-check, the samples are
// written into the result directory for the analysis of a sweep.
func runMeasured(ctx context.Context, env *Env, f *runFlags, plan run.Plan) error {
	dir := plan.Out
	check := selfcheck.NewLive(false) // the same output a run starts
	_ = check.Start()
	err := runPlanned(ctx, env, f, plan)
	_ = check.Stop()
	if resultdir.IsResult(dir) {
		if _, serr := os.Stat(filepath.Join(dir, selfcheck.File)); errors.Is(serr, os.ErrNotExist) {
			if werr := check.WriteDir(dir); werr != nil && err == nil {
				err = werr
			}
		}
	}
	return err
}

// analyseSweep loads the step directories, prints the table on stdout and
// writes sweep.json, sweep.txt and (unless noReport) report.html with the
// scaling curves into parent.
func analyseSweep(env *Env, parent string, dirs []string, rule sweep.Rule, noReport bool) error {
	var points []sweep.Point
	var results []*resultdir.Result
	for _, d := range dirs {
		r, err := resultdir.Load(d)
		if err != nil {
			return err
		}
		check, err := selfcheck.Read(d)
		if err != nil {
			return err
		}
		results = append(results, r)
		pts := sweep.FromResult(r, check)
		if err := sweep.AddTarget(pts, r); err != nil { // --monitor series, when the steps have one
			return err
		}
		points = append(points, pts...)
	}
	a := sweep.Analyze(points, rule)
	if a.Dimension == "" {
		return usagef("%s holds no sweep steps (their options.json has no sweep entry)", parent)
	}
	var table strings.Builder
	if err := sweep.WriteTable(&table, a); err != nil {
		return err
	}
	fmt.Fprint(env.Stdout, "\n"+table.String())
	if err := resultdir.WriteFile(parent, sweepTableFile, []byte(table.String())); err != nil {
		return err
	}
	if err := resultdir.WriteJSON(parent, sweepJSONFile, a); err != nil {
		return err
	}
	written := []string{filepath.Join(parent, sweepTableFile), filepath.Join(parent, sweepJSONFile)}
	if !noReport {
		path := filepath.Join(parent, resultdir.ReportFile)
		if err := report.WriteFile(path, results, report.Options{Generator: "stampede " + version.String()}); err != nil {
			return fmt.Errorf("sweep report: %w", err)
		}
		written = append(written, path)
	}
	fmt.Fprintf(env.Stderr, "sweep analysis: %s\n", strings.Join(written, ", "))
	return nil
}

// planSweep validates the dimension flags and lays out the steps.
func planSweep(f *sweepFlags, scenarios []string) ([]sweepStep, error) {
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
	var steps []sweepStep
	for i, v := range values {
		st := sweepStep{n: i + 1, dim: dim, value: v}
		label := v
		switch dim {
		case sweep.DimVUs:
			st.vus = int64(vus[i])
			st.description = v + " VUs"
		case sweep.DimRate:
			st.rate = int64(rates[i])
			st.description = "rate " + v
		case sweep.DimNodes:
			st.nodes = v
			st.description = v + " nodes"
			st.resize = resize
			if len(targets) > 0 {
				st.target = targets[i]
			}
		case sweep.DimTarget:
			st.target = v
			st.value = driver.Redact(v)
			st.description = st.value
			label = targetLabel(v)
		}
		if dim != sweep.DimVUs && len(vus) == 1 {
			st.vus = int64(vus[0])
		}
		if dim != sweep.DimRate && len(rates) == 1 {
			st.rate = int64(rates[0])
		}
		st.dir = filepath.Join(f.out, fmt.Sprintf("step-%02d-%s", st.n, label))
		if resultdir.IsResult(st.dir) {
			return nil, usagef("%s already holds a run: choose another --out for the sweep", st.dir)
		}
		st.info = []string{sweep.KeyDimension + "=" + dim, sweep.KeyValue + "=" + st.value, sweep.KeyStep + "=" + strconv.Itoa(st.n)}
		if st.nodes != "" {
			st.info = append(st.info, sweep.KeyNodes+"="+st.nodes)
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

var unsafeLabel = regexp.MustCompile(`[^A-Za-z0-9.-]+`)

// targetLabel is a directory-safe short name of a target URL: its host.
func targetLabel(target string) string {
	s := driver.Redact(target)
	if _, rest, ok := strings.Cut(s, "://"); ok {
		s = rest
	}
	if at := strings.LastIndex(s, "@"); at >= 0 {
		s = s[at+1:]
	}
	s, _, _ = strings.Cut(s, "/")
	s = strings.Trim(unsafeLabel.ReplaceAllString(s, "_"), "_")
	if len(s) > 40 {
		s = s[:40]
	}
	if s == "" {
		s = "target"
	}
	return s
}

// sweepInfoMap turns the hidden run flag --sweep-info KEY=VALUE (repeated)
// into options.json's sweep map (nil when absent).
func sweepInfoMap(kvs []string) map[string]string {
	if len(kvs) == 0 {
		return nil
	}
	out := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}
