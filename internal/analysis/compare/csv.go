package compare

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// WriteCSV renders r as one CSV row per scenario and metric, for
// spreadsheets and scripts:
//
//	scenario, metric (flag syntax, e.g. responseTime:p95), unit,
//	better (lower, higher or empty), alpha, base_n, cand_n,
//	base_1 … base_N, cand_1 … cand_M (each run's value; empty when the
//	run lacks the scenario), base_mean, base_stddevp, base_cv_pct,
//	cand_mean, cand_stddevp, cand_cv_pct, delta_pct, p, ci_lo_pct,
//	ci_hi_pct, significant (true/false), verdict, note
//
// N and M are the most runs of a side. Percentages are in percent
// (−2.5 = 2.5% lower); values that could not be computed are empty.
// Warnings and notes are not part of the CSV.
func (r *Report) WriteCSV(w io.Writer) error {
	nb, nc := 0, 0
	for _, s := range r.Scenarios {
		for _, m := range s.Metrics {
			nb, nc = max(nb, len(m.Base)), max(nc, len(m.Cand))
		}
	}
	head := []string{"scenario", "metric", "unit", "better", "alpha", "base_n", "cand_n"}
	for i := range nb {
		head = append(head, fmt.Sprintf("base_%d", i+1))
	}
	for i := range nc {
		head = append(head, fmt.Sprintf("cand_%d", i+1))
	}
	head = append(head, "base_mean", "base_stddevp", "base_cv_pct", "cand_mean", "cand_stddevp", "cand_cv_pct",
		"delta_pct", "p", "ci_lo_pct", "ci_hi_pct", "significant", "verdict", "note")
	cw := csv.NewWriter(w)
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, s := range r.Scenarios {
		for _, m := range s.Metrics {
			v := m.Verdict
			row := []string{s.Name, m.Metric.String(), m.Unit, better(m.Direction), csvNum(r.Alpha, -1),
				strconv.Itoa(v.N1), strconv.Itoa(v.N2)}
			row = append(row, runCells(m.Base, nb)...)
			row = append(row, runCells(m.Cand, nc)...)
			row = append(row,
				csvNum(v.BaseMean, 4), csvNum(m.BaseStdDevP, 4), csvNum(100*m.BaseCV, 4),
				csvNum(v.CandMean, 4), csvNum(m.CandStdDevP, 4), csvNum(100*m.CandCV, 4),
				csvNum(100*v.Delta, 4), csvNum(v.P, 6), csvNum(100*v.Lo, 4), csvNum(100*v.Hi, 4),
				strconv.FormatBool(v.Significant), verdict(m), v.Note)
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func runCells(xs []float64, n int) []string {
	out := make([]string, n)
	for i := range min(n, len(xs)) {
		out[i] = csvNum(xs[i], 4)
	}
	return out
}

// csvNum formats v with prec decimals (-1: as few as needed); empty for
// NaN and infinities.
func csvNum(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

func better(d Direction) string {
	switch d {
	case LowerIsBetter:
		return "lower"
	case HigherIsBetter:
		return "higher"
	}
	return ""
}
