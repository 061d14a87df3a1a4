package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/envinfo"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/output/prom"
	"github.com/stampede-bench/stampede/internal/profile"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
)

// runPlan is everything a run needs, validated before any target is touched.
type runPlan struct {
	flags     *runFlags
	fs        *pflag.FlagSet
	names     []string
	configs   map[string]engine.Config
	byFamily  map[workload.Family][]string
	families  []workload.Family // in first-use order
	target    string
	parentOut string
	outputs   []outputSpec
	fileCfg   *fileConfig
	profilers []profile.Collector // --profile, around each scenario
	tags      map[string]string   // --tag values and testid of the current run
	run       int                 // the current run's number (0: single run)
	monitors  []monitor.Spec      // --monitor sources
	nicSpeed  float64             // --nic-speed, bytes per second (0: unknown)
}

// runRun is `stampede run`: plan, then run once or --repeat times.
func runRun(ctx context.Context, env *Env, f *runFlags, catalog *workload.Catalog, fs *pflag.FlagSet, args []string) error {
	plan, err := makePlan(env, f, catalog, fs, args)
	if err != nil || env.planOnly {
		return err
	}
	if err := preflight(ctx, env, plan); err != nil {
		return err
	}
	if f.selfProf != "" {
		stop, err := startSelfProfile(f.selfProf)
		if err != nil {
			return err
		}
		defer stop()
	}
	if f.repeat <= 1 {
		return runOnce(ctx, env, plan, plan.parentOut, 0)
	}
	var failed error
	for i := 1; i <= f.repeat; i++ {
		if ctx.Err() != nil {
			break
		}
		dir := filepath.Join(plan.parentOut, fmt.Sprintf("run-%02d", i))
		if !f.quiet {
			fmt.Fprintf(env.Stderr, "\n=== run %d of %d → %s\n", i, f.repeat, dir)
		}
		err := runOnce(ctx, env, plan, dir, i)
		var ee *ExitError
		if errors.As(err, &ee) && ee.Code == ExitThresholdsFailed {
			failed = err // keep going: the comparison needs every run
		} else if err != nil {
			return err
		}
		if i < f.repeat && f.cooldown > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(f.cooldown):
			}
		}
	}
	if ctx.Err() != nil {
		return &ExitError{Code: ExitInterrupted, Msg: "interrupted"}
	}
	return failed
}

// ExitInterrupted is the exit code after Ctrl+C (128 + SIGINT).
const ExitInterrupted = 130

func makePlan(env *Env, f *runFlags, catalog *workload.Catalog, fs *pflag.FlagSet, args []string) (*runPlan, error) {
	p := &runPlan{flags: f, fs: fs, configs: map[string]engine.Config{}}
	changed := func(n string) bool { return fs.Changed(n) }
	if f.config != "" {
		fc, err := loadConfig(f.config)
		if err != nil {
			return nil, err
		}
		p.fileCfg = fc
		for k, v := range fc.Options {
			if fl := fs.Lookup(k); fl == nil {
				return nil, usagef("config option %q is not a run flag", k)
			} else if !fl.Changed {
				if err := fs.Set(k, v); err != nil {
					return nil, usagef("config option %s=%q: %v", k, v, err)
				}
			}
		}
		if !changed("target") && fc.Target != "" {
			f.target = fc.Target
		}
		if !changed("threshold") {
			f.thresholds = append(f.thresholds, fc.Thresholds...)
		}
	}
	p.names = args
	if len(p.names) == 0 && p.fileCfg != nil {
		p.names = p.fileCfg.Order
	}
	if len(p.names) == 0 {
		p.names = catalog.Defaults()
	}
	if len(p.names) == 0 {
		return nil, usagef("no scenario given (see stampede scenarios)")
	}
	for _, fam := range catalog.Families() {
		if c, ok := fam.(workload.FlagChecker); ok {
			if err := c.CheckFlags(); err != nil {
				return nil, asUsage(err)
			}
		}
	}
	byFamily, err := catalog.Resolve(p.names)
	if err != nil {
		return nil, asUsage(err)
	}
	p.byFamily = byFamily
	for _, n := range p.names {
		fam, _, _ := catalog.Find(n)
		if !containsFamily(p.families, fam) {
			p.families = append(p.families, fam)
		}
	}
	flagCfg, err := executorFromFlags(f, changed)
	if err != nil {
		return nil, err
	}
	for _, n := range p.names {
		c, err := scenarioConfig(n, flagCfg, p.fileCfg, changed)
		if err != nil {
			return nil, err
		}
		p.configs[n] = c
	}
	if err := applySegment(p); err != nil {
		return nil, err
	}
	if env.planOnly {
		// The plan runs elsewhere (k8s pods): this machine's memory says nothing.
	} else if err := checkMemory(p.configs, f.concurrent, !f.noCSV, availableMemory()); err != nil {
		return nil, err
	}
	if f.repeat < 1 {
		return nil, usagef("--repeat must be ≥ 1")
	}
	if f.timeout < 0 {
		return nil, usagef("--timeout must not be negative")
	}
	p.target = f.target
	if p.target != "" {
		if _, err := newDrivers().ParseTarget(p.target); err != nil {
			return nil, asUsage(err)
		}
	}
	dir := ""
	for _, o := range f.out {
		spec, err := parseOutputSpec(o)
		if err != nil {
			return nil, err
		}
		if spec.kind == "dir" {
			if dir != "" {
				return nil, usagef("--out names two result directories: %s and %s", dir, spec.arg)
			}
			dir = spec.arg
			continue
		}
		if _, k6 := k6StreamKinds[spec.kind]; k6 {
			if err := checkStreamSpec(spec, f.repeat); err != nil {
				return nil, err
			}
		}
		p.outputs = append(p.outputs, spec)
	}
	if dir == "" {
		dir = filepath.Join("stampede-results", resultdir.StampName(time.Now()))
	}
	p.parentOut = dir
	for _, t := range f.thresholds {
		if _, err := parseThreshold(t); err != nil {
			return nil, err
		}
	}
	if err := f.k6.check(); err != nil {
		return nil, err
	}
	if p.profilers, err = parseProfilers(f.profiles, env.Getenv); err != nil {
		return nil, err
	}
	if f.prometheus != "" {
		if _, err := prom.ResolveAddr(f.prometheus); err != nil {
			return nil, usagef("--prometheus: %v", err)
		}
	}
	if err := planMonitor(p); err != nil {
		return nil, err
	}
	return p, nil
}

func containsFamily(list []workload.Family, f workload.Family) bool {
	for _, x := range list {
		if x == f {
			return true
		}
	}
	return false
}

// workloadEnv is what families get for this plan, recording into reg.
func (p *runPlan) workloadEnv(env *Env, reg *metrics.Registry) *workload.Env {
	f := p.flags
	wenv := &workload.Env{
		Target: p.target, Drivers: newDrivers(), DataDir: f.dataDir, Metrics: reg,
		MaxVUs: int(maxVUs(p.configs)), Seed: f.seed, Timeout: f.timeout,
		Log: env.Stderr, Stderr: io.Discard, Quiet: f.quiet, Getenv: env.Getenv,
		InsecureSkipTLSVerify: f.k6.insecure, UserAgent: f.k6.userAgent, Vars: f.k6.vars(),
	}
	if isTTY(env.Stderr) && !f.quiet && !f.json {
		wenv.Stderr = env.Stderr // progress bars only on a terminal
	}
	return wenv
}

// runOnce opens the targets, runs the plan once into dir and writes every
// output. run numbers repeated runs (0: single run). The result directory
// is created only once the targets are open and the thresholds checked;
// when the command fails before the engine starts, what it created there
// is removed again.
func runOnce(ctx context.Context, env *Env, p *runPlan, dir string, run int) (err error) {
	f := p.flags
	reg := metrics.NewRegistry()
	wenv := p.workloadEnv(env, reg)
	p.run, p.tags = run, f.k6.runTags(dir)
	scenarios := map[string]engine.Scenario{}
	var notes []string
	inProcess := false // some target runs inside this process
	standIn := false   // some target is a stand-in (kfake)
	targetDesc, targetVersion := driver.Redact(p.target), ""
	var closers []func() error
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			if cerr := closers[i](); cerr != nil && err == nil {
				err = fmt.Errorf("close target: %w", cerr)
			}
		}
	}()
	for _, fam := range p.families {
		opened, err := fam.Open(ctx, wenv, p.byFamily[fam])
		if err != nil {
			if usage.Is(err) {
				return err
			}
			if ctx.Err() != nil {
				return &ExitError{Code: ExitInterrupted, Msg: "interrupted while preparing the target"}
			}
			return fmt.Errorf("prepare %s: %w", fam.Name(), err)
		}
		if opened.Close != nil {
			closers = append(closers, opened.Close)
		}
		for n, s := range opened.Scenarios {
			scenarios[n] = s
		}
		notes = append(notes, opened.Notes...)
		inProcess = inProcess || opened.InProcess
		standIn = standIn || opened.StandIn
		if opened.Target != "" {
			targetDesc = opened.Target
		}
		if opened.TargetVersion != "" {
			targetVersion = opened.TargetVersion
		}
	}
	if err := checkThresholds(f.thresholds, reg, p.names); err != nil {
		return err
	}
	if err := checkResultDir(dir); err != nil {
		return err
	}
	created, err := createdDirs(dir)
	if err != nil {
		return usagef("create result directory: %v", err)
	}
	undo := &undoFiles{}
	defer func() {
		if err != nil && !undo.disarmed {
			undo.run()
			removeCreated(created)
		}
	}()

	fp := envinfo.Collect()
	fp.Target, fp.TargetVersion = targetDesc, targetVersion
	opts := resultdir.Options{
		Args: redactEnvArgs(redactArgs(os.Args[1:])), Target: targetDesc, InProcess: inProcess, StandIn: standIn, Concurrent: f.concurrent, Seed: f.seed,
		Run: run, Flags: f.familyFlags(p.fs), Thresholds: f.thresholds,
		Segment: f.segment, Sweep: sweepInfoMap(f.sweepInfo),
		Monitor: monitorDisplay(p.monitors), NICSpeed: p.nicSpeed,
	}
	var specs []engine.Spec
	for _, n := range p.names {
		specs = append(specs, engine.Spec{Name: n, Scenario: scenarios[n], Config: p.configs[n]})
		opts.Scenarios = append(opts.Scenarios, resultdir.ScenarioOptions{Name: n, Config: p.configs[n]})
	}
	undo.add(filepath.Join(dir, resultdir.OptionsFile))
	if err := resultdir.WriteJSON(dir, resultdir.OptionsFile, opts); err != nil {
		return err
	}
	undo.add(filepath.Join(dir, resultdir.EnvFile))
	if err := resultdir.WriteJSON(dir, resultdir.EnvFile, fp); err != nil {
		return err
	}
	startAt, err := waitStartAt(ctx, env, p)
	if err != nil {
		return err
	}
	return execute(ctx, env, p, dir, reg, specs, targetInfo{notes: notes, inProcess: inProcess}, startAt, undo)
}

func maxVUs(configs map[string]engine.Config) int64 {
	var m int64
	for _, c := range configs {
		m = max(m, c.MaxVUsNeeded())
	}
	return m
}
