package threshold

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/metric"
)

// aggsByKind lists the aggregations k6 allows per metric kind.
var aggsByKind = map[metric.Kind][]string{
	metric.KindTrend:   {"avg", "min", "max", "med", "p"},
	metric.KindCounter: {"count", "rate"},
	metric.KindRate:    {"rate"},
	metric.KindGauge:   {"value"},
}

func aggFits(k metric.Kind, a Agg) bool {
	for _, n := range aggsByKind[k] {
		if n == a.Name {
			return true
		}
	}
	return false
}

func aggList(k metric.Kind) string {
	names := append([]string(nil), aggsByKind[k]...)
	for i, n := range names {
		if n == "p" {
			names[i] = "p(N)"
		}
	}
	return strings.Join(names, ", ")
}

// Result is the outcome of one expression of a threshold.
type Result struct {
	// Metric is the k6 key of the (sub)metric, e.g.
	// "responseTime{scenario:go.Go1Step}".
	Metric string
	// Expr is the expression as written, e.g. "p(95)<200".
	Expr string
	Agg  Agg
	// Kind and Unit describe the metric (zero when it has no data).
	Kind metric.Kind
	Unit metric.Unit
	// Value is the observed statistic in the threshold's units: ms for
	// time trends and time counters, a fraction for rates, per second for a
	// counter's rate.
	Value float64
	// Pass reports whether the expression held. It is false when Err is set.
	Pass bool
	// NoData is set when the metric has no samples: as in k6, such an
	// expression passes (checks: rate>0.99 with no check made), and the
	// account says why.
	NoData bool
	// Err says why the expression could not be evaluated (no samples,
	// unknown scenario); such a threshold fails.
	Err error
}

// Failed reports whether any result did not pass.
func Failed(rs []Result) bool {
	for _, r := range rs {
		if !r.Pass {
			return true
		}
	}
	return false
}

// String is a one-line account, e.g.
// "✓ responseTime: p(95)<200 (p(95)=84.36)".
func (r Result) String() string {
	mark := "✓"
	if !r.Pass {
		mark = "✗"
	}
	if r.Err != nil {
		return fmt.Sprintf("%s %s: %s (%v)", mark, r.Metric, r.Expr, r.Err)
	}
	if r.NoData {
		return fmt.Sprintf("%s %s: %s (no samples: passes, as in k6)", mark, r.Metric, r.Expr)
	}
	return fmt.Sprintf("%s %s: %s (%s=%g)", mark, r.Metric, r.Expr, r.Agg, r.Value)
}

// Evaluate tests every expression of ts against snap and returns one
// Result per expression, in order. Unscoped thresholds see all scenarios
// merged; counter rates are per second of the run (of the scenario for
// scoped thresholds). A metric without samples fails the threshold with
// an explanatory Err rather than passing silently.
func Evaluate(snap *metric.Snapshot, ts []Threshold) []Result {
	var all *metric.ScenarioSnapshot
	var out []Result
	for _, t := range ts {
		var sc *metric.ScenarioSnapshot
		var err error
		if t.Scenario == "" {
			if all == nil {
				all = metric.Total(snap)
			}
			sc = all
		} else if sc = snap.Scenario(t.Scenario); sc == nil {
			err = fmt.Errorf("unknown scenario %q (ran: %s)", t.Scenario, strings.Join(scenarioNames(snap), ", "))
		}
		for _, e := range t.Exprs {
			r := Result{Metric: t.Key(), Expr: e.Source, Agg: e.Agg, Err: err}
			if err == nil {
				r.Kind, r.Unit, r.Value, r.Err = observe(sc, t.Metric, e.Agg)
				if errors.Is(r.Err, errNoSamples) {
					r.Err, r.NoData = nil, true
				}
			}
			r.Pass = r.Err == nil && (r.NoData || e.Op.Holds(r.Value, e.Value))
			out = append(out, r)
		}
	}
	return out
}

func scenarioNames(snap *metric.Snapshot) []string {
	names := make([]string, len(snap.Scenarios))
	for i, sc := range snap.Scenarios {
		names[i] = sc.Name
	}
	return names
}

// observe computes aggregation a of metric name in sc.
func observe(sc *metric.ScenarioSnapshot, name string, a Agg) (metric.Kind, metric.Unit, float64, error) {
	if tr, ok := sc.Trends[name]; ok {
		v, err := TrendStat(tr, a)
		return metric.KindTrend, tr.Unit, v, err
	}
	if n, ok := sc.Counters[name]; ok {
		u := sc.Units[name]
		v := float64(n)
		if u == metric.UnitMicros {
			v /= 1000
		}
		switch a.Name {
		case "count":
			return metric.KindCounter, u, v, nil
		case "rate":
			return metric.KindCounter, u, PerSecond(v, sc), nil
		}
		return metric.KindCounter, u, 0, kindErr(name, metric.KindCounter, a)
	}
	if r, ok := sc.Rates[name]; ok {
		if a.Name != "rate" {
			return metric.KindRate, 0, 0, kindErr(name, metric.KindRate, a)
		}
		return metric.KindRate, 0, r.Value(), nil
	}
	if g, ok := sc.Gauges[name]; ok {
		if a.Name != "value" {
			return metric.KindGauge, 0, 0, kindErr(name, metric.KindGauge, a)
		}
		return metric.KindGauge, 0, g.Value, nil
	}
	return 0, 0, 0, fmt.Errorf("%w of %s (known metrics with data: %s)", errNoSamples, name, strings.Join(namesWithData(sc), ", "))
}

// errNoSamples marks a metric without samples in the scenario.
var errNoSamples = errors.New("no samples")

// Applies returns nil when aggregation a applies to a metric of kind k
// (named name), otherwise an error that says which aggregations do.
func Applies(name string, k metric.Kind, a Agg) error {
	if aggFits(k, a) {
		return nil
	}
	return kindErr(name, k, a)
}

func kindErr(name string, k metric.Kind, a Agg) error {
	return fmt.Errorf("%s is a %s: %s does not apply (use %s)", name, k, a, aggList(k))
}

// TrendStat returns aggregation a of t, in ms for time trends.
func TrendStat(t *metric.Trend, a Agg) (float64, error) {
	h := t.Hist
	if h.TotalCount() == 0 {
		return 0, errNoSamples
	}
	var v float64
	switch a.Name {
	case "avg":
		v = h.Mean()
	case "min":
		v = float64(h.Min())
	case "max":
		v = float64(h.Max())
	case "med":
		v = float64(h.ValueAtPercentile(50))
	case "p":
		v = float64(h.ValueAtPercentile(a.P))
	default:
		return 0, fmt.Errorf("a trend has no %s (use %s)", a, aggList(metric.KindTrend))
	}
	if t.Unit == metric.UnitMicros {
		v /= 1000
	}
	return v, nil
}

// PerSecond divides v by the measured duration of sc (its run time without
// the warm-up) in seconds (0 when it has none).
func PerSecond(v float64, sc *metric.ScenarioSnapshot) float64 {
	if d := sc.MeasuredDuration().Seconds(); d > 0 {
		return v / d
	}
	return 0
}

func namesWithData(sc *metric.ScenarioSnapshot) []string {
	var names []string
	for n := range sc.Trends {
		names = append(names, n)
	}
	for n := range sc.Counters {
		names = append(names, n)
	}
	for n := range sc.Rates {
		names = append(names, n)
	}
	for n := range sc.Gauges {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
