package stats

import (
	"fmt"
	"math"
)

// DefaultAlpha is the significance level Compare uses when given one
// outside (0, 1).
const DefaultAlpha = 0.05

// Verdict is the comparison of a candidate's per-run results against a
// base's, as Compare computes it. Fractions are relative changes of the
// candidate: -0.1022 = 10.22% lower than base. Fields that could not be
// computed are NaN.
type Verdict struct {
	// N1 and N2 are the number of base and candidate runs.
	N1, N2 int
	// BaseMean and CandMean are the means of the runs.
	BaseMean, CandMean float64
	// Delta is CandMean/BaseMean − 1, the seed table's Opt/Default figure
	// with its sign (the seed shows 1 − ratio as an improvement).
	Delta float64
	// Shift is the Hodges–Lehmann estimate of the change (ShiftEstimate);
	// it sits inside [Lo, Hi] even when an outlying run pulls Delta out.
	Shift float64
	// U, P and Exact are from MannWhitneyU(base, cand).
	U     float64
	P     float64
	Exact bool
	// Alpha is the significance level used; Level = 1 − Alpha is the
	// confidence level of [Lo, Hi], the ChangeCI interval.
	Alpha, Level float64
	Lo, Hi       float64
	// Significant is true when P < Alpha (beyond rounding): the runs
	// support a difference.
	// When false the change should be shown as "~".
	Significant bool
	// Note explains a verdict that cannot be trusted or could not be
	// reached, such as too few runs; empty otherwise.
	Note string
}

// Compare compares per-run results (e.g. each run's mean or p95 latency)
// of a candidate against a base with the Mann-Whitney U test at
// significance level alpha (DefaultAlpha when alpha is not in (0, 1)) and
// a ChangeCI interval at level 1 − alpha. It never fails: problems such as
// empty samples, non-positive values or too few runs to ever reach
// p < alpha leave Significant false and are described in Note.
func Compare(base, cand []float64, alpha float64) Verdict {
	if !(alpha > 0 && alpha < 1) {
		alpha = DefaultAlpha
	}
	nan := math.NaN()
	v := Verdict{
		N1: len(base), N2: len(cand),
		BaseMean: Mean(base), CandMean: Mean(cand),
		Shift: nan, U: nan, P: nan,
		Alpha: alpha, Level: 1 - alpha,
		Lo: nan, Hi: nan,
	}
	v.Delta = v.CandMean/v.BaseMean - 1

	mw, err := MannWhitneyU(base, cand)
	if err != nil {
		v.Note = "cannot compare: " + err.Error()
		return v
	}
	v.U, v.P, v.Exact = mw.U, mw.P, mw.Exact
	v.Significant = below(v.P, alpha)

	if minP := MinPValue(v.N1, v.N2); !below(minP, alpha) {
		v.Significant = false
		v.Note = fmt.Sprintf("too few runs: %d vs %d can never reach p<%g (smallest p is %.3g); need ≥%d per side",
			v.N1, v.N2, alpha, minP, MinRuns(alpha))
		return v
	}
	if v.Lo, v.Hi, err = ChangeCI(base, cand, v.Level); err != nil {
		v.Note = "no confidence interval: " + err.Error()
		return v
	}
	v.Shift, _ = ShiftEstimate(base, cand) // same inputs as ChangeCI: cannot fail
	return v
}

// String formats v the way benchstat does: the change and its p-value,
// "-10.22% (p=0.008 n=5)", or "~ (p=0.310 n=5)" when the runs do not
// support a difference; n is shown as "5+4" when the sides differ.
func (v Verdict) String() string {
	n := fmt.Sprint(v.N1)
	if v.N1 != v.N2 {
		n = fmt.Sprintf("%d+%d", v.N1, v.N2)
	}
	change := "~"
	if v.Significant {
		change = fmt.Sprintf("%+.2f%%", 100*v.Delta)
	}
	if math.IsNaN(v.P) {
		return fmt.Sprintf("%s (n=%s)", change, n)
	}
	return fmt.Sprintf("%s (p=%.3f n=%s)", change, v.P, n)
}
