package cli

import (
	"path/filepath"
	"time"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/output/prom"
	"github.com/stampede-bench/stampede/internal/output/webdash"
	"github.com/stampede-bench/stampede/internal/profile"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/runconfig"
	"github.com/stampede-bench/stampede/internal/secret"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/plan"
)

// planInput is what `stampede run` was given: the parsed flags, which of
// them the user set, the config file and the scenario arguments.
type planInput struct {
	flags   *runFlags
	changed func(name string) bool
	catalog *workload.Catalog
	// outputs are the outputs --out can name (nil: stampede's own).
	outputs *output.Registry
	fileCfg *runconfig.File // --config, loaded (nil: none)
	args    []string        // scenario names
	// commandLine is recorded in options.json (redacted here).
	commandLine []string
	// workloadOptions are the family flags given, for options.json.
	workloadOptions map[string]string
	getenv          func(string) string
	now             time.Time // for now+D and the default result directory
}

// buildPlan translates the run flags into a run.Plan. It has no side
// effects: it reads no flag set, touches no file and starts nothing; every
// bad value is a usage error.
func buildPlan(in planInput) (run.Plan, error) {
	f, changed, fc := in.flags, in.changed, in.fileCfg
	if f.bindErr != nil {
		return run.Plan{}, f.bindErr
	}
	p := run.Plan{Plan: plan.Plan{
		Concurrent: f.concurrent, DataDir: f.dataDir, Seed: f.seed, Timeout: f.timeout,
		Backoff:               executor.Backoff{Min: f.backoff, Max: f.backoffMax},
		InsecureSkipTLSVerify: f.k6.insecure, UserAgent: f.k6.userAgent,
		NoThresholds: f.k6.noThresholds, Repeat: f.repeat,
		CommandLine:     secret.RedactTagArgs(secret.RedactEnvArgs(secret.RedactArgs(in.commandLine))),
		WorkloadOptions: in.workloadOptions,
	}}
	if f.backoff == 0 {
		p.Backoff.Min = -1 // --backoff 0: no waiting
	}
	target, thresholds := f.target, f.thresholds
	if fc != nil {
		if !changed("target") && fc.Target != "" {
			target = fc.Target
		}
		if !changed("threshold") {
			thresholds = append(append([]string(nil), thresholds...), fc.Thresholds.Specs...)
		}
	}
	names := in.args
	if len(names) == 0 && fc != nil {
		names = fc.Order
	}
	if len(names) == 0 {
		names = in.catalog.Defaults()
	}
	if len(names) == 0 {
		return p, usagef("no scenario given (see stampede scenarios)")
	}
	for _, fam := range in.catalog.Families() {
		if c, ok := fam.(workload.FlagChecker); ok {
			if err := c.CheckFlags(); err != nil {
				return p, asUsage(err)
			}
		}
	}
	if _, err := in.catalog.Resolve(names); err != nil {
		return p, asUsage(err)
	}
	flagCfg, err := executorFromFlags(f, changed)
	if err != nil {
		return p, err
	}
	for _, n := range names {
		fam, _, _ := in.catalog.Find(n)
		c, err := scenarioConfig(n, flagCfg, fc, changed)
		if err != nil {
			return p, err
		}
		p.Scenarios = append(p.Scenarios, run.Scenario{Name: n, Family: fam, Config: c})
	}
	if err := workload.CheckFlagFamilies(f.flagFamily, changed, in.commandLine, scenarioFamilies(p.Scenarios)); err != nil {
		return p, err
	}
	if f.startAt != "" {
		t, err := run.ParseStartAt(f.startAt, in.now)
		if err != nil {
			return p, usagef("--start-at: %v", err)
		}
		if err := run.CheckStartAt(t, f.startAt, in.now); err != nil {
			return p, err
		}
		p.StartAt = t
	}
	if f.segment != "" {
		seg, err := executor.ParseSegment(f.segment)
		if err != nil {
			return p, usagef("--segment: %v", err)
		}
		if p, err = p.WithSegment(seg); err != nil {
			return p, err
		}
	}
	if f.repeat < 1 {
		return p, usagef("--repeat must be ≥ 1")
	}
	if f.timeout < 0 {
		return p, usagef("--timeout must not be negative")
	}
	p.Target = target
	if p.Target != "" {
		if _, err := newDrivers().ParseTarget(p.Target); err != nil {
			return p, asUsage(err)
		}
	}
	dir := ""
	var outs []run.OutputSpec // --out NAME=ARG, in the order given
	var dashOuts []string     // --out web-dashboard[=PARAMS]
	for _, o := range f.out {
		spec, err := parseOutputSpec(in.outputs, o)
		if err != nil {
			return p, err
		}
		if spec.Kind == webdash.Name {
			dashOuts = append(dashOuts, spec.Arg)
			continue
		}
		if spec.Kind == "dir" {
			if dir != "" {
				return p, usagef("--out names two result directories: %s and %s", dir, spec.Arg)
			}
			dir = spec.Arg
			continue
		}
		outs = append(outs, spec)
	}
	if dir == "" {
		dir = filepath.Join("stampede-results", resultdir.StampName(in.now))
	}
	p.Out = dir
	if p.Thresholds, err = run.ParseThresholds(thresholds); err != nil {
		return p, asUsage(err)
	}
	if err := f.k6.check(); err != nil {
		return p, err
	}
	p.Vars = f.k6.vars()
	p.Tags, _ = runconfig.ParseKV("--tag", f.k6.tags)
	if err := run.CheckTagNames(p.Tags); err != nil {
		return p, err
	}
	p.Tags = secret.RedactTags(p.Tags, f.secretTags)
	p.TrendStats, _ = f.k6.trendStatList()
	p.SummaryMode = f.k6.layout()
	if p.Profilers, err = parseProfilers(f.profiles, in.getenv); err != nil {
		return p, err
	}
	var promSpec []run.OutputSpec
	if f.prometheus != "" {
		addr, err := prom.ResolveAddr(f.prometheus)
		if err != nil {
			return p, usagef("--prometheus: %v", err)
		}
		promSpec = []run.OutputSpec{{Kind: outputs.Prometheus, Arg: addr, Options: map[string]string{prom.LingerOptionName: f.linger.String()}}}
	}
	dash, err := f.k6.webDashboard(dashOuts, changed)
	if err != nil {
		return p, err
	}
	if dash.Enabled() {
		outs = append(outs, dash.Spec())
	}
	p.Outputs = planOutputs(f, promSpec, outs)
	if p.Monitors, p.NICSpeed, err = planMonitor(f.monitors, f.nicSpeed); err != nil {
		return p, err
	}
	return p, nil
}

// planOutputs lists the outputs of a run in start order (they stop in
// the reverse one): the request CSV (unless --no-csv), series.jsonl,
// report.html (unless --no-report), --summary-export, --prometheus, then
// the --out outputs in the order given.
func planOutputs(f *runFlags, prometheus, outs []run.OutputSpec) []run.OutputSpec {
	var out []run.OutputSpec
	if !f.noCSV {
		out = append(out, run.OutputSpec{Kind: outputs.Requests, Arg: f.csvFile})
	}
	out = append(out, run.OutputSpec{Kind: outputs.Series})
	if !f.noReport {
		out = append(out, run.OutputSpec{Kind: outputs.Report})
	}
	if f.summaryOut != "" {
		out = append(out, run.OutputSpec{Kind: outputs.SummaryExport, Arg: f.summaryOut})
	}
	out = append(out, prometheus...)
	return append(out, outs...)
}

// planMonitor validates --monitor and --nic-speed (bytes per second),
// before anything runs: a bad source is one line and exit 2.
func planMonitor(sources []string, nicSpeed string) ([]monitor.Spec, float64, error) {
	specs, err := monitor.ParseSpecs(sources)
	if err != nil {
		return nil, 0, asUsage(err)
	}
	if err := monitor.Check(specs); err != nil {
		return nil, 0, asUsage(err)
	}
	speed := 0.0
	if nicSpeed != "" {
		if speed, err = monitor.ParseNICSpeed(nicSpeed); err != nil {
			return nil, 0, asUsage(err)
		}
	}
	return specs, speed, nil
}

// parseProfilers parses the --profile values while planning, so a bad one
// stops the run before any target is touched.
func parseProfilers(specs []string, getenv func(string) string) ([]profile.Collector, error) {
	var out []profile.Collector
	for _, s := range specs {
		c, err := profile.ParseSpecEnv(s, getenv)
		if err != nil {
			return nil, asUsage(err)
		}
		out = append(out, c)
	}
	return out, nil
}

// scenarioFamilies are the names of the families of scenarios.
func scenarioFamilies(scenarios []run.Scenario) []string {
	var out []string
	for _, s := range scenarios {
		if s.Family != nil {
			out = append(out, s.Family.Name())
		}
	}
	return out
}
