package summary

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// DefaultTrendStats are k6's default trend statistics.
var DefaultTrendStats = []string{"avg", "min", "med", "max", "p(90)", "p(95)", "p(99)"}

// ParseTrendStats parses k6's --summary-trend-stats value, e.g.
// "avg,min,med,max,p(90),p(95),p(99.9),count". Each is avg, min, med, max,
// count or p(N) with 0 < N ≤ 100.
func ParseTrendStats(s string) ([]string, error) {
	var out []string
	for st := range strings.SplitSeq(s, ",") {
		st = strings.TrimSpace(st)
		switch st {
		case "avg", "min", "med", "max", "count":
		default:
			n, ok := strings.CutPrefix(st, "p(")
			n, ok2 := strings.CutSuffix(n, ")")
			p, err := strconv.ParseFloat(n, 64)
			if !ok || !ok2 || err != nil || !(p > 0 && p <= 100) {
				return nil, fmt.Errorf("bad trend stat %q: want avg, min, med, max, count or p(N), e.g. avg,p(95),p(99.9)", st)
			}
		}
		out = append(out, st)
	}
	return out, nil
}

// trendStat is statistic st (not count) of t, in the trend's unit; s
// holds t's Stats, which has most of them.
func trendStat(t *metrics.Trend, s *metrics.Stats, st string) float64 {
	if s.Count == 0 {
		return 0
	}
	switch st {
	case "avg":
		return s.Avg
	case "min":
		return s.Min
	case "max":
		return s.Max
	case "med", "p(50)":
		return s.Med
	case "p(90)":
		return s.P90
	case "p(95)":
		return s.P95
	case "p(99)":
		return s.P99
	case "p(99.9)":
		return s.P999
	}
	p, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(st, "p("), ")"), 64)
	return float64(t.Hist.ValueAtPercentile(p))
}

func (c *console) trendStats() []string {
	if c.opts.TrendStats != nil {
		return c.opts.TrendStats
	}
	return DefaultTrendStats
}

// statsTrend is a trend with the chosen statistics, in their order.
type statsTrend struct {
	names []string
	vals  []float64
	thresholds
}

func newStatsTrend(t *metrics.Trend, stats []string) *statsTrend {
	k := 1.0
	if t.Unit == metrics.UnitMicros {
		k = 1000
	}
	s := &statsTrend{names: stats}
	all := t.Stats()
	for _, st := range stats {
		if st == "count" {
			s.vals = append(s.vals, float64(t.Hist.TotalCount()))
			continue
		}
		s.vals = append(s.vals, trendStat(t, &all, st)/k)
	}
	return s
}

// MarshalJSON writes the statistics in order, then the thresholds.
func (s *statsTrend) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, n := range s.names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		v, err := json.Marshal(s.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	if len(s.Thresholds) > 0 {
		b.WriteString(`,"thresholds":`)
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // "p(95)<200", as k6 writes it
		if err := enc.Encode(s.Thresholds); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
