package cli

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/stampede-bench/stampede/internal/bounded"
	"github.com/stampede-bench/stampede/internal/engine"
)

// applyEnv sets every flag the user did not give from STAMPEDE_<NAME>
// (upper case, dashes as underscores), e.g. STAMPEDE_VUS=100.
func applyEnv(fs *pflag.FlagSet, getenv func(string) string) error {
	var err error
	fs.VisitAll(func(fl *pflag.Flag) {
		if fl.Changed || err != nil {
			return
		}
		key := "STAMPEDE_" + strings.ToUpper(strings.ReplaceAll(fl.Name, "-", "_"))
		if v := getenv(key); v != "" {
			if serr := fs.Set(fl.Name, v); serr != nil {
				err = usagef("%s=%q: %v", key, v, serr)
			}
		}
	})
	return err
}

// applyEnvExcept is applyEnv for the flags of fs not named in skip.
func applyEnvExcept(fs *pflag.FlagSet, getenv func(string) string, skip map[string]bool) error {
	sub := pflag.NewFlagSet(fs.Name(), pflag.ContinueOnError)
	fs.VisitAll(func(fl *pflag.Flag) {
		if !skip[fl.Name] {
			sub.AddFlag(fl)
		}
	})
	return applyEnv(sub, getenv)
}

// isSecretFlag reports flags whose values must never be written out.
func isSecretFlag(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "password") || strings.Contains(n, "secret") || strings.Contains(n, "token")
}

// fileConfig is the YAML config file: k6-like scenarios with executors.
//
//	target: postgres://bench@127.0.0.1/bench
//	scenarios:
//	  one.Scenario: {executor: constant-vus, vus: 50, duration: 30s}
//	  two.Scenario: {executor: ramping-vus, stages: [{duration: 10s, target: 100}]}
//	thresholds: ["responseTime: p(95)<200"]   # or k6's map form (configthresholds.go)
//	options: {batch-size: "300"}
type fileConfig struct {
	Target     string                   `yaml:"target"`
	Order      []string                 `yaml:"-"`
	Scenarios  map[string]engine.Config `yaml:"scenarios"`
	Thresholds configThresholds         `yaml:"thresholds"`
	Options    map[string]string        `yaml:"options"`
}

// loadConfig reads a YAML config file, keeping the scenario order.
func loadConfig(ctx context.Context, path string) (*fileConfig, error) {
	b, err := bounded.ReadFile(ctx, path, bounded.ConfigBytes)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, usagef("config: %v", err)
	}
	var c fileConfig
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, usagef("config %s: %v", path, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	var doc struct {
		Scenarios yaml.Node `yaml:"scenarios"`
	}
	if err := yaml.Unmarshal(b, &doc); err == nil && doc.Scenarios.Kind == yaml.MappingNode {
		for i := 0; i < len(doc.Scenarios.Content); i += 2 {
			name := doc.Scenarios.Content[i].Value
			c.Order = append(c.Order, name)
			if err := checkScenarioFields(doc.Scenarios.Content[i+1]); err != nil {
				return nil, usagef("config scenario %s: %v", name, err)
			}
		}
	}
	// Order names only defined scenarios; those a YAML merge key ("<<")
	// brings in come last, by name.
	c.Order = slices.DeleteFunc(c.Order, func(k string) bool { _, ok := c.Scenarios[k]; return !ok })
	var rest []string
	for k := range c.Scenarios {
		if !slices.Contains(c.Order, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	c.Order = append(c.Order, rest...)
	return &c, nil
}

// checkScenarioFields reports an option that the scenario's executor
// (constant-vus when none is given) does not take, e.g. rate for
// constant-vus, or an unknown executor.
func checkScenarioFields(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return nil // the typed decoding has reported it
	}
	executor := engine.ConstantVUs
	var keys []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys = append(keys, n.Content[i].Value)
		if n.Content[i].Value == "executor" && n.Content[i+1].Value != "" {
			executor = n.Content[i+1].Value
		}
	}
	return engine.CheckFields(executor, keys)
}

// parseStage parses DURATION:TARGET, e.g. 30s:100.
func parseStage(s string) (engine.Stage, error) {
	d, t, ok := strings.Cut(s, ":")
	if !ok {
		return engine.Stage{}, usagef("bad stage %q: want DURATION:TARGET, e.g. 30s:100", s)
	}
	dur, err := time.ParseDuration(strings.TrimSpace(d))
	if err != nil || dur < 0 {
		return engine.Stage{}, usagef("bad stage %q: duration %q is not a duration like 30s", s, d)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n < 0 {
		return engine.Stage{}, usagef("bad stage %q: target %q is not a count ≥ 0", s, t)
	}
	return engine.Stage{Duration: dur, Target: n}, nil
}

// executorFromFlags builds the executor configuration the flags describe.
// changed tells which flags the user set.
func executorFromFlags(f *runFlags, changed func(string) bool) (engine.Config, error) {
	if err := checkExecutorFlags(f, changed); err != nil {
		return engine.Config{}, err
	}
	var stages []engine.Stage
	for _, s := range f.stages {
		st, err := parseStage(s)
		if err != nil {
			return engine.Config{}, err
		}
		stages = append(stages, st)
	}
	c, err := engine.Shortcuts{
		Executor: f.executor, VUs: f.vus, VUsSet: changed("vus"),
		Duration: f.duration, DurationSet: changed("duration"),
		Iterations: f.iterations, IterationsSet: changed("iterations"),
		Rate: f.rate, RateSet: changed("rate"), TimeUnit: f.timeUnit, MaxVUs: f.maxVUs,
		Stages: stages, GracefulStop: f.gracefulStp, Warmup: f.warmup,
	}.Config()
	if err != nil {
		return c, usagef("%v", err)
	}
	return c, nil
}

// executorFlagsChanged reports whether any executor flag was given.
func executorFlagsChanged(changed func(string) bool) bool {
	for _, n := range []string{"vus", "duration", "iterations", "rate", "time-unit", "max-vus", "stage", "executor"} {
		if changed(n) {
			return true
		}
	}
	return false
}

// scenarioConfig picks the executor of one scenario: flags when given,
// otherwise the config file's entry (with warm-up and graceful stop from
// flags when the file has none), otherwise the flag defaults.
func scenarioConfig(name string, fromFlags engine.Config, fc *fileConfig, changed func(string) bool) (engine.Config, error) {
	if fc == nil || executorFlagsChanged(changed) {
		return fromFlags, nil
	}
	c, ok := fc.Scenarios[name]
	if !ok {
		return fromFlags, nil
	}
	if c.Warmup == 0 {
		c.Warmup = fromFlags.Warmup
	}
	if c.GracefulStop == 0 {
		c.GracefulStop = fromFlags.GracefulStop
	}
	c = c.Defaults()
	if err := c.ValidateInput(); err != nil {
		return c, usagef("config scenario %s: %s", name, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return c, nil
}
