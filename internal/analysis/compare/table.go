package compare

import (
	"fmt"
	"math"
)

// grid is one scenario's table in the seed's shape: a column pair (base,
// candidate) per metric; a row per run, then Mean, STDDEVP, STDDEVP/Mean,
// and the candidate's change, p-value, confidence interval and verdict.
type grid struct {
	// metrics are the column-pair titles, "responseTime avg (µs)".
	metrics []string
	// rows: first cell the row label, then two cells per metric.
	rows [][]string
	// span marks rows whose base cells are empty and whose candidate cells
	// describe the pair (change, p, CI, verdict).
	span []bool
}

// Row labels of the statistics under the runs.
const (
	rowMean    = "Mean"
	rowStdDevP = "STDDEVP"
	rowCV      = "STDDEVP/Mean"
	rowP       = "p (Mann-Whitney U)"
	rowVerdict = "verdict"
)

// grid builds the table of scenario s.
func (r *Report) grid(s ScenarioResult) grid {
	var g grid
	runs := 0
	for _, m := range s.Metrics {
		g.metrics = append(g.metrics, metricTitle(m))
		runs = max(runs, len(m.Base), len(m.Cand))
	}
	spanning := false
	row := func(label string, base, cand func(m MetricResult) string) {
		cells := []string{label}
		for _, m := range s.Metrics {
			cells = append(cells, base(m), cand(m))
		}
		g.rows = append(g.rows, cells)
		g.span = append(g.span, spanning)
	}
	none := func(MetricResult) string { return "" }
	for i := range runs {
		row(fmt.Sprint(i+1),
			func(m MetricResult) string { return runValue(m.Base, i) },
			func(m MetricResult) string { return runValue(m.Cand, i) })
	}
	row(rowMean,
		func(m MetricResult) string { return num(m.Verdict.BaseMean) },
		func(m MetricResult) string { return num(m.Verdict.CandMean) })
	row(rowStdDevP,
		func(m MetricResult) string { return num(m.BaseStdDevP) },
		func(m MetricResult) string { return num(m.CandStdDevP) })
	row(rowCV,
		func(m MetricResult) string { return pct(m.BaseCV) },
		func(m MetricResult) string { return pct(m.CandCV) })
	spanning = true
	row(r.deltaLabel(), none, func(m MetricResult) string { return signedPct(m.Verdict.Delta) })
	row(rowP, none, func(m MetricResult) string { return pValue(m.Verdict.P) })
	row(r.ciLabel(), none, func(m MetricResult) string { return ci(m.Verdict.Lo, m.Verdict.Hi) })
	row(rowVerdict, none, verdict)
	return g
}

// deltaLabel is the seed's "Opt/Default" row title with the side names.
func (r *Report) deltaLabel() string { return r.Cand.Name + "/" + r.Base.Name }

// ciLabel is "95% CI" for alpha 0.05.
func (r *Report) ciLabel() string { return fmt.Sprintf("%g%% CI", roundPct(1-r.Alpha)) }

// roundPct is 100·f without float noise (0.95 → 95, not 94.99999999999999).
func roundPct(f float64) float64 { return math.Round(1e6*100*f) / 1e6 }

func metricTitle(m MetricResult) string {
	if m.Unit == "" {
		return m.Metric.Label()
	}
	return m.Metric.Label() + " (" + m.Unit + ")"
}

func runValue(xs []float64, i int) string {
	if i >= len(xs) || math.IsNaN(xs[i]) {
		return ""
	}
	return num(xs[i])
}

// verdict is the benchstat verdict, with "better" or "worse" when the
// metric has a direction and the change is significant.
func verdict(m MetricResult) string {
	s := m.Verdict.String()
	switch {
	case m.Better():
		s += " better"
	case m.Worse():
		s += " worse"
	}
	return s
}

// num formats a run value or mean: two decimals, like the seed.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", v)
}

func pct(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f%%", 100*f)
}

func signedPct(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "n/a"
	}
	return fmt.Sprintf("%+.2f%%", 100*f)
}

func pValue(p float64) string {
	if math.IsNaN(p) {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", p)
}

func ci(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "n/a"
	}
	return "[" + signedPct(lo) + ", " + signedPct(hi) + "]"
}

// legend explains the rows under the runs, one sentence a line.
func (r *Report) legend() []string {
	return []string{
		fmt.Sprintf("%s: mean of %s / mean of %s − 1; latencies are better lower, qps higher.", r.deltaLabel(), r.Cand.Name, r.Base.Name),
		"p: two-sided Mann-Whitney U test over the runs; " + r.ciLabel() +
			": distribution-free interval for the change (Hodges–Lehmann, as R's wilcox.test).",
		fmt.Sprintf("~: no significant difference at α = %g.", r.Alpha),
	}
}

// runsSummary is "/path (5 runs)".
func runsSummary(s SideInfo) string {
	n := len(s.Runs)
	if n == 1 {
		return s.Path + " (1 run)"
	}
	return fmt.Sprintf("%s (%d runs)", s.Path, n)
}
