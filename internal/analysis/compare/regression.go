package compare

import (
	"fmt"
	"math"
)

// Regression is a metric of a scenario that got significantly worse.
type Regression struct {
	Scenario string
	Metric   MetricResult
}

// String is "http.Request responseTime p95 +7.10% (p=0.008 n=5)".
func (g Regression) String() string {
	return fmt.Sprintf("%s %s %s", g.Scenario, g.Metric.Metric.Label(), g.Metric.Verdict)
}

// Regressions returns the metrics whose candidate is significantly worse
// (Worse: higher latency, lower qps; p < Alpha) and whose change of the
// means is worse by more than pct percent; pct 0 means any significant
// regression. Metrics without a direction never count. Order: scenario,
// then metric, as in the report.
func (r *Report) Regressions(pct float64) []Regression {
	var out []Regression
	for _, s := range r.Scenarios {
		for _, m := range s.Metrics {
			if m.Worse() && 100*math.Abs(m.Verdict.Delta) > pct {
				out = append(out, Regression{Scenario: s.Name, Metric: m})
			}
		}
	}
	return out
}
