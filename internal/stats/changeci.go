package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// ChangeCI returns a confidence interval, at confidence level (e.g. 0.95),
// for the relative change of cand against base as a fraction: -0.12 means
// the candidate is 12% lower. Values must be positive (latencies,
// throughputs).
//
// Method: the distribution-free interval that goes with the Mann-Whitney
// test (Bauer 1972; Hollander & Wolfe, "Nonparametric Statistical Methods",
// §4.3; R's wilcox.test(conf.int=TRUE)), applied to logarithms so the shift
// is a ratio. Under the model cand ~ base·r, the n1·n2 pairwise differences
// log(cand[j]) − log(base[i]) are sorted and the interval is
// [d(k), d(n1·n2+1−k)], where k is the largest integer with
// P(U ≤ k−1) < (1−level)/2 under the exact null distribution of U (normal
// approximation once a sample reaches ExactLimit); that is R's choice, and
// it makes the interval exclude 0 exactly when the exact Mann-Whitney
// p-value is below 1 − level. Its coverage is at least
// level whatever the shape of the distribution, needs no random numbers (so
// it is deterministic) and, unlike a bootstrap, is still honest at 5 runs.
// The interval is returned as exp(d)−1.
//
// Ties make the interval slightly conservative, not wrong. With too few
// runs for the level (for 0.95: 3 vs 3; see MinPValue) it returns an error
// wrapping ErrTooFewRuns, and NaN bounds. It returns ErrNoData for an empty
// sample and ErrBadValue for non-positive, NaN or infinite values, or for a
// level outside (0, 1).
func ChangeCI(base, cand []float64, level float64) (lo, hi float64, err error) {
	nan := math.NaN()
	if !(level > 0 && level < 1) {
		return nan, nan, fmt.Errorf("confidence level %v, want in (0, 1): %w", level, ErrBadValue)
	}
	d, err := logRatioDiffs(base, cand)
	if err != nil {
		return nan, nan, err
	}
	k := ciRank(len(base), len(cand), (1-level)/2)
	if k < 1 {
		return nan, nan, fmt.Errorf("%d vs %d runs cannot give a %g%% confidence interval (need ≥%d per side): %w",
			len(base), len(cand), 100*level, MinRuns(1-level), ErrTooFewRuns)
	}
	return math.Expm1(d[k-1]), math.Expm1(d[len(d)-k]), nil
}

// ShiftEstimate returns the Hodges–Lehmann estimate of the relative change
// of cand against base, as a fraction: exp(median of the pairwise
// log(cand[j]) − log(base[i])) − 1. It is the point estimate that goes with
// ChangeCI and is robust to an outlying run. Errors are those of ChangeCI.
func ShiftEstimate(base, cand []float64) (float64, error) {
	d, err := logRatioDiffs(base, cand)
	if err != nil {
		return math.NaN(), err
	}
	n := len(d)
	med := d[n/2]
	if n%2 == 0 {
		med = (d[n/2-1] + d[n/2]) / 2
	}
	return math.Expm1(med), nil
}

// logRatioDiffs validates base and cand and returns the sorted pairwise
// differences log(cand[j]) − log(base[i]).
func logRatioDiffs(base, cand []float64) ([]float64, error) {
	if err := checkSample("base", base, true); err != nil {
		return nil, err
	}
	if err := checkSample("candidate", cand, true); err != nil {
		return nil, err
	}
	d := make([]float64, 0, len(base)*len(cand))
	for _, b := range base {
		lb := math.Log(b)
		for _, c := range cand {
			d = append(d, math.Log(c)-lb)
		}
	}
	slices.Sort(d)
	return d, nil
}

// ciRank returns the largest k with P(U ≤ k−1) < tail for samples of n1 and
// n2 values: the 1-based rank of the lower confidence bound among the
// sorted pairwise differences. 0 means no interval reaches the level.
func ciRank(n1, n2 int, tail float64) int {
	if n1 < ExactLimit && n2 < ExactLimit {
		cum := uCDF(n1, n2)
		total := cum[len(cum)-1]
		k := 0
		for k < len(cum) && below(cum[k]/total, tail) {
			k++
		}
		return k
	}
	// Hollander & Wolfe's large-sample approximation, rounded down so the
	// coverage errs on the safe side.
	f1, f2 := float64(n1), float64(n2)
	z := distuv.UnitNormal.Quantile(1 - tail)
	k := math.Floor(f1*f2/2 - z*math.Sqrt(f1*f2*(f1+f2+1)/12))
	return max(0, int(k))
}

// below reports whether probability p is below limit by more than
// rounding: values within a relative 1e-9 count as equal, so that e.g.
// 2/20 is not "below" 1−0.9 (0.09999999999999998 in float64). The test
// and the interval use it alike, so they always agree.
func below(p, limit float64) bool {
	return p < limit*(1-1e-9)
}
