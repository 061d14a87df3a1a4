// Package runconfig reads the YAML config file of stampede run and sweep
// (--config): k6-like scenarios with executors, the target, thresholds in
// stampede's or k6's form and workload options. Bad input is a usage
// error (package usage).
package runconfig

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/bounded"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/usage"
)

// File is the YAML config file of stampede run (--config): k6-like scenarios with executors.
//
//	target: postgres://bench@127.0.0.1/bench
//	scenarios:
//	  one.Scenario: {executor: constant-vus, vus: 50, duration: 30s}
//	  two.Scenario: {executor: ramping-vus, stages: [{duration: 10s, target: 100}]}
//	thresholds: ["responseTime: p(95)<200"]   # or k6's map form (thresholds.go)
//	options: {batch-size: "300"}
type File struct {
	Target     string                   `yaml:"target"`
	Order      []string                 `yaml:"-"`
	Scenarios  map[string]engine.Config `yaml:"scenarios"`
	Thresholds Thresholds               `yaml:"thresholds"`
	Options    map[string]string        `yaml:"options"`
}

// Load reads a YAML config file, keeping the scenario order.
func Load(ctx context.Context, path string) (*File, error) {
	b, err := bounded.ReadFile(ctx, path, bounded.ConfigBytes)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, usage.Errorf("config: %v", err)
	}
	var c File
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, usage.Errorf("config %s: %v", path, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	var doc struct {
		Scenarios yaml.Node `yaml:"scenarios"`
	}
	if err := yaml.Unmarshal(b, &doc); err == nil && doc.Scenarios.Kind == yaml.MappingNode {
		for i := 0; i < len(doc.Scenarios.Content); i += 2 {
			name := doc.Scenarios.Content[i].Value
			c.Order = append(c.Order, name)
			if err := checkScenarioFields(doc.Scenarios.Content[i+1]); err != nil {
				return nil, usage.Errorf("config scenario %s: %v", name, err)
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
	name := engine.ConstantVUs
	var keys []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys = append(keys, n.Content[i].Value)
		if n.Content[i].Value == "executor" && n.Content[i+1].Value != "" {
			name = n.Content[i+1].Value
		}
	}
	return executor.CheckFields(name, keys)
}

// Scenario returns scenario name's executor: fromFlags when c is nil,
// override is set (executor flags were given) or c has no such scenario;
// else c's, with fromFlags' warmup and graceful stop where c has none,
// defaults applied and validated (a usage error).
func (c *File) Scenario(name string, fromFlags engine.Config, override bool) (engine.Config, error) {
	if c == nil || override {
		return fromFlags, nil
	}
	sc, ok := c.Scenarios[name]
	if !ok {
		return fromFlags, nil
	}
	if sc.Warmup == 0 {
		sc.Warmup = fromFlags.Warmup
	}
	if sc.GracefulStop == 0 {
		sc.GracefulStop = fromFlags.GracefulStop
	}
	sc = sc.Defaults()
	if err := sc.ValidateInput(); err != nil {
		return sc, usage.Errorf("config scenario %s: %s", name, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return sc, nil
}

// ApplyOptions sets the flags of fs that c's options name and the user did
// not give (the config file's workload options); an option that is not a
// flag of fs is a usage error. A nil c sets nothing.
func (c *File) ApplyOptions(fs *pflag.FlagSet) error {
	if c == nil {
		return nil
	}
	for k, v := range c.Options {
		if fl := fs.Lookup(k); fl == nil {
			return usage.Errorf("config option %q is not a run flag", k)
		} else if !fl.Changed {
			if err := fs.Set(k, v); err != nil {
				return usage.Errorf("config option %s=%q: %v", k, v, err)
			}
		}
	}
	return nil
}
