package compare

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// Direction says which way a metric improves.
type Direction int8

const (
	// NoDirection: neither way is better (e.g. rows per request); such a
	// metric is never a regression.
	NoDirection Direction = 0
	// LowerIsBetter: latencies, error rates.
	LowerIsBetter Direction = -1
	// HigherIsBetter: throughputs.
	HigherIsBetter Direction = 1
)

// QPS is the metric name of a scenario's throughput: requests per second
// over the measured part of the scenario (iterations per second when the
// scenario counted no requests).
const QPS = "qps"

// StatRate is the Stat of a counter compared as a per-second rate.
const StatRate = "rate"

// Metric is one number taken from each run of a scenario: Stat of trend
// Name (min, avg, med, max or a percentile pNN, e.g. p95 or p99.9), Stat
// "rate" of counter Name (per second), or QPS.
type Metric struct {
	Name string
	Stat string
}

// String is the metric in flag syntax: "responseTime:p95", "qps".
func (m Metric) String() string {
	if m.Name == QPS || m.Name == TargetCPU {
		return m.Name
	}
	return m.Name + ":" + m.Stat
}

// Label is the metric as a column title: "responseTime p95", "qps".
func (m Metric) Label() string {
	if m.Name == QPS {
		return QPS
	}
	if m.Name == TargetCPU {
		return "target CPU/op"
	}
	return m.Name + " " + m.Stat
}

// ParseMetric parses NAME:STAT, where STAT is min, avg, med, max, pNN
// (0 < NN ≤ 100, e.g. p90, p95, p99, p99.9) or rate (a counter per
// second), or the word qps.
func ParseMetric(s string) (Metric, error) {
	if strings.EqualFold(s, QPS) {
		return Metric{Name: QPS}, nil
	}
	if strings.EqualFold(s, TargetCPU) {
		return Metric{Name: TargetCPU}, nil
	}
	name, stat, ok := strings.Cut(s, ":")
	if !ok || name == "" || stat == "" {
		return Metric{}, fmt.Errorf("metric %q: want NAME:STAT (e.g. responseTime:p95) or qps", s)
	}
	m := Metric{Name: name, Stat: strings.ToLower(stat)}
	switch m.Stat {
	case "min", "avg", "med", "max", StatRate:
		return m, nil
	}
	if _, ok := percentile(m.Stat); ok {
		return m, nil
	}
	return Metric{}, fmt.Errorf("metric %q: unknown statistic %q (want min, avg, med, max, p90, p95, p99, p99.9, any pNN, or rate for a counter)", s, stat)
}

// percentile parses "pNN" into NN in (0, 100].
func percentile(stat string) (float64, bool) {
	v, ok := strings.CutPrefix(stat, "p")
	if !ok {
		return 0, false
	}
	p, err := strconv.ParseFloat(v, 64)
	if err != nil || !(p > 0 && p <= 100) {
		return 0, false
	}
	return p, true
}

// isTrendStat reports whether m is a statistic of a trend.
func (m Metric) isTrendStat() bool {
	return m.Name != QPS && m.Name != TargetCPU && m.Stat != StatRate
}

// value is m measured on one scenario of one run, with its unit. ok is
// false when the run has no such metric (no trend of that name, or one
// without samples; no counter; a zero-length measured time).
//
// Time trends are in µs. Rates divide a count by the scenario's measured
// time: its wall time less warmup, whose samples were not recorded.
func (m Metric) value(sc *metrics.ScenarioSnapshot, warmup time.Duration) (v float64, unit string, ok bool) {
	if m.isTrendStat() {
		t := sc.Trends[m.Name]
		if t == nil || t.Hist == nil || t.Hist.TotalCount() == 0 {
			return 0, "", false
		}
		return trendStat(t, m.Stat), unitName(t.Unit), true
	}
	secs := (sc.Duration() - warmup).Seconds()
	if secs <= 0 {
		return 0, "", false
	}
	if m.Name == QPS {
		if n := sc.Counters[metrics.Requests]; n > 0 {
			return float64(n) / secs, "req/s", true
		}
		if n, ok := sc.Counters[metrics.Iterations]; ok {
			return float64(n) / secs, "it/s", true
		}
		return 0, "", false
	}
	if n, ok := sc.Counters[m.Name]; ok {
		return float64(n) / secs, "/s", true
	}
	return 0, "", false
}

func trendStat(t *metrics.Trend, stat string) float64 {
	switch stat {
	case "min":
		return float64(t.Hist.Min())
	case "avg":
		return t.Hist.Mean()
	case "med":
		return t.Percentile(50)
	case "max":
		return float64(t.Hist.Max())
	}
	p, _ := percentile(stat)
	return t.Percentile(p)
}

func unitName(u metrics.Unit) string {
	switch u {
	case metrics.UnitMicros:
		return "µs"
	case metrics.UnitBytes:
		return "B"
	}
	return ""
}

// direction is which way m improves, given the unit its values had: time
// statistics and error or drop rates are better lower, throughputs and
// other counter rates higher; other trends (rows, sizes) have none.
func (m Metric) direction(unit string) Direction {
	switch {
	case m.Name == QPS:
		return HigherIsBetter
	case m.Name == TargetCPU:
		return LowerIsBetter
	case m.Stat == StatRate && (m.Name == metrics.Errors || m.Name == metrics.DroppedIterations):
		return LowerIsBetter
	case m.Stat == StatRate:
		return HigherIsBetter
	case unit == "µs":
		return LowerIsBetter
	}
	return NoDirection
}

// defaultMetrics are the metrics compared when none are chosen: average and
// p95 of the server-reported latency when every run of the scenario has
// it, else of the client-measured responseTime, and QPS.
func defaultMetrics(scs []*metrics.ScenarioSnapshot) []Metric {
	trend := metrics.Latency
	for _, sc := range scs {
		if t := sc.Trends[metrics.Latency]; t == nil || t.Hist == nil || t.Hist.TotalCount() == 0 {
			trend = metrics.ResponseTime
			break
		}
	}
	return []Metric{{trend, "avg"}, {trend, "p95"}, {Name: QPS}}
}
