package run

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/threshold"
)

// ParseThresholds parses k6 threshold specs such as
// "responseTime: p(95)<200" (threshold.ParseSet). Specs on the same
// metric are merged. A bad spec is a usage error.
func ParseThresholds(specs []string) (threshold.Set, error) {
	s, err := threshold.ParseSet(specs)
	return s, asUsage(err)
}

// checkThresholdMetrics validates thresholds before a run: every metric
// must be registered in reg, every aggregation must suit the metric's
// kind, and every scenario must be one of scenarios (when scenarios is
// non-nil). It returns the first problem as one line (the CLI exits with
// code 2).
func checkThresholdMetrics(ts []threshold.Threshold, reg *metrics.Registry, scenarios []string) error {
	for _, t := range ts {
		id, ok := reg.Lookup(t.Metric)
		if !ok {
			if base, _, tagged := strings.Cut(t.Metric, "{"); tagged {
				if _, known := reg.Lookup(base); known {
					return fmt.Errorf("threshold %q: stampede does not record the submetric %s (tagged submetrics it records: %s)", t.String(), t.Metric, strings.Join(submetrics(reg), ", "))
				}
			}
			return fmt.Errorf("threshold %q: unknown metric %q (known: %s)", t.String(), t.Metric, strings.Join(reg.Names(), ", "))
		}
		d := reg.Def(id)
		for _, e := range t.Exprs {
			if err := threshold.Applies(t.Metric, d.Kind, e.Agg); err != nil {
				return fmt.Errorf("threshold %q: %w", t.String(), err)
			}
		}
		if t.Scenario != "" && scenarios != nil && !slices.Contains(scenarios, t.Scenario) {
			return fmt.Errorf("threshold %q: unknown scenario %q (running: %s)", t.String(), t.Scenario, strings.Join(scenarios, ", "))
		}
	}
	return nil
}

// submetrics lists the registered tagged submetrics (besides scenario).
func submetrics(reg *metrics.Registry) []string {
	var out []string
	for _, n := range reg.Names() {
		if strings.Contains(n, "{") {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		out = []string{"none"}
	}
	return out
}
