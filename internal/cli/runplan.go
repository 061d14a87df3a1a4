package cli

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/prom"
	"github.com/stampede-bench/stampede/internal/profile"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/segment"
	"github.com/stampede-bench/stampede/internal/workload"
)

// planInput is what `stampede run` was given: the parsed flags, which of
// them the user set, the config file and the scenario arguments.
type planInput struct {
	flags   *runFlags
	changed func(name string) bool
	catalog *workload.Catalog
	// outputs are the outputs --out can name (nil: stampede's own).
	outputs *output.Registry
	fileCfg *fileConfig // --config, loaded (nil: none)
	args    []string    // scenario names
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
	p := run.Plan{
		Concurrent: f.concurrent, DataDir: f.dataDir, Seed: f.seed, Timeout: f.timeout,
		Backoff:               engine.Backoff{Min: f.backoff, Max: f.backoffMax},
		InsecureSkipTLSVerify: f.k6.insecure, UserAgent: f.k6.userAgent,
		CSV: f.csvFile, NoCSV: f.noCSV, SummaryExport: f.summaryOut, NoReport: f.noReport,
		NoThresholds: f.k6.noThresholds, Repeat: f.repeat,
		CommandLine:     redactTagArgs(redactEnvArgs(redactArgs(in.commandLine))),
		WorkloadOptions: in.workloadOptions,
	}
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
	if err := checkFlagFamilies(f.flagFamily, changed, in.commandLine, p.Scenarios); err != nil {
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
		seg, err := segment.Parse(f.segment)
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
	for _, o := range f.out {
		spec, err := parseOutputSpec(in.outputs, o)
		if err != nil {
			return p, err
		}
		if spec.Kind == "dir" {
			if dir != "" {
				return p, usagef("--out names two result directories: %s and %s", dir, spec.Arg)
			}
			dir = spec.Arg
			continue
		}
		if _, k6 := run.K6StreamKinds[spec.Kind]; k6 {
			if err := run.CheckStreamSpec(spec, f.repeat); err != nil {
				return p, err
			}
		}
		p.Outputs = append(p.Outputs, spec)
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
	p.Tags, _ = parseKV("--tag", f.k6.tags)
	if err := checkTagNames(p.Tags); err != nil {
		return p, err
	}
	p.Tags = redactTags(p.Tags, f.secretTags)
	p.TrendStats, _ = f.k6.trendStatList()
	p.SummaryMode = f.k6.summaryMode
	if p.Profilers, err = parseProfilers(f.profiles, in.getenv); err != nil {
		return p, err
	}
	if f.prometheus != "" {
		addr, err := prom.ResolveAddr(f.prometheus)
		if err != nil {
			return p, usagef("--prometheus: %v", err)
		}
		p.Prometheus = addr
		p.Linger = f.linger
	}
	if p.Monitors, p.NICSpeed, err = planMonitor(f.monitors, f.nicSpeed); err != nil {
		return p, err
	}
	return p, nil
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

// applyConfigOptions sets the run flags the config file's options name and
// the user did not give (the config file's workload options).
func applyConfigOptions(fs *pflag.FlagSet, fc *fileConfig) error {
	if fc == nil {
		return nil
	}
	for k, v := range fc.Options {
		if fl := fs.Lookup(k); fl == nil {
			return usagef("config option %q is not a run flag", k)
		} else if !fl.Changed {
			if err := fs.Set(k, v); err != nil {
				return usagef("config option %s=%q: %v", k, v, err)
			}
		}
	}
	return nil
}

// checkFlagFamilies refuses a workload flag given on the command line when
// no scenario of the run belongs to a family that binds it: --kill-node
// (nats) with only kafka.* scenarios would otherwise be ignored silently,
// and the run would not test what was asked. Flags set from the
// environment (STAMPEDE_*) or a config file's options are not refused:
// they are often shared by runs of several families.
func checkFlagFamilies(families map[string][]string, changed func(string) bool, commandLine []string, scenarios []run.Scenario) error {
	running := map[string]bool{}
	for _, s := range scenarios {
		if s.Family != nil {
			running[s.Family.Name()] = true
		}
	}
	var names []string
	for name := range families {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fams := families[name]
		if !changed(name) || !onCommandLine(commandLine, name) || slices.ContainsFunc(fams, func(f string) bool { return running[f] }) {
			continue
		}
		var run []string
		for f := range running {
			run = append(run, f)
		}
		sort.Strings(run)
		return usagef("--%s is a flag of the %s family, and no scenario of it runs (families run: %s): it would be ignored; drop it or add a %s.* scenario",
			name, strings.Join(fams, "/"), strings.Join(run, ", "), fams[0])
	}
	return nil
}

// onCommandLine reports whether --name is among args (before a "--").
func onCommandLine(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--"+name || strings.HasPrefix(a, "--"+name+"=") {
			return true
		}
	}
	return false
}
