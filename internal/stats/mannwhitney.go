package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// ExactLimit is the sample size below which MannWhitneyU computes exact
// p-values: both samples must have fewer than ExactLimit values (and no
// ties). It is R's wilcox.test rule.
const ExactLimit = 50

// MWResult is the outcome of a two-sided Mann-Whitney U test.
type MWResult struct {
	// U is the statistic for x: the number of pairs (x[i], y[j]) with
	// x[i] > y[j], a tie counting one half. It equals R's wilcox.test W;
	// the statistic for y is N1*N2 - U.
	U float64
	// P is the two-sided p-value, in [0, 1].
	P float64
	// Exact reports whether P comes from the exact null distribution of U;
	// when false it comes from the normal approximation with tie and
	// continuity correction, and Z holds the corrected normal deviate.
	Exact bool
	Z     float64
	// Ties reports whether any value occurs more than once in x and y
	// together.
	Ties bool
	// N1 and N2 are len(x) and len(y).
	N1, N2 int
}

// MannWhitneyU runs the two-sided Mann-Whitney U (Wilcoxon rank-sum) test
// of x against y: the null hypothesis is that both come from the same
// distribution.
//
// Without ties and with both samples smaller than ExactLimit the p-value is
// exact: the null distribution of U is enumerated (as benchstat does) and
// P = min(1, 2·min(P(U ≤ u), P(U ≥ u))). Otherwise it uses the normal
// approximation with mean N1·N2/2, variance corrected for ties,
// N1·N2/12·((N+1) − Σ(t³−t)/(N(N−1))), and a continuity correction of 0.5
// toward the mean — the same as R's wilcox.test(x, y, exact=NULL,
// correct=TRUE). When every value is equal there is no evidence of a
// difference and P is 1.
//
// It returns ErrNoData for an empty sample and ErrBadValue for NaN or ±Inf.
func MannWhitneyU(x, y []float64) (MWResult, error) {
	if err := checkSample("x", x, false); err != nil {
		return MWResult{}, err
	}
	if err := checkSample("y", y, false); err != nil {
		return MWResult{}, err
	}
	n1, n2 := len(x), len(y)
	r1, tieSum := rankSum(x, y)
	u := r1 - float64(n1*(n1+1))/2
	res := MWResult{U: u, N1: n1, N2: n2, Ties: tieSum > 0}

	if !res.Ties && n1 < ExactLimit && n2 < ExactLimit {
		res.Exact = true
		res.P = exactP(int(math.Round(u)), uCDF(n1, n2))
		return res, nil
	}

	res.Z, res.P = approxP(u, n1, n2, tieSum)
	return res, nil
}

// approxP is the normal approximation of the two-sided p-value of U = u
// for samples of n1 and n2 values with Σ(t³−t) = tieSum over tied groups,
// with continuity correction; z is the corrected deviate. With zero
// variance (every value equal) it returns z = 0, p = 1.
func approxP(u float64, n1, n2 int, tieSum float64) (z, p float64) {
	f1, f2, n := float64(n1), float64(n2), float64(n1+n2)
	sigma := math.Sqrt(f1 * f2 / 12 * ((n + 1) - tieSum/(n*(n-1))))
	if sigma == 0 || math.IsNaN(sigma) {
		return 0, 1
	}
	d := u - f1*f2/2
	switch {
	case d > 0:
		d -= 0.5
	case d < 0:
		d += 0.5
	}
	z = d / sigma
	return z, math.Min(1, 2*distuv.UnitNormal.CDF(-math.Abs(z)))
}

// rankSum ranks x and y together (ties get their average rank) and returns
// the sum of the ranks of x and Σ(t³−t) over groups of t tied values.
func rankSum(x, y []float64) (r1, tieSum float64) {
	type obs struct {
		v   float64
		inX bool
	}
	all := make([]obs, 0, len(x)+len(y))
	for _, v := range x {
		all = append(all, obs{v, true})
	}
	for _, v := range y {
		all = append(all, obs{v, false})
	}
	slices.SortFunc(all, func(a, b obs) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		// Values all[i:j] are tied at ranks i+1..j; each gets the mean.
		rank := float64(i+1+j) / 2
		for _, o := range all[i:j] {
			if o.inX {
				r1 += rank
			}
		}
		if t := float64(j - i); t > 1 {
			tieSum += t*t*t - t
		}
		i = j
	}
	return r1, tieSum
}

// exactP is the exact two-sided p-value of U = u given cum = uCDF(n1, n2).
func exactP(u int, cum []float64) float64 {
	total := cum[len(cum)-1]
	lower := cum[u] / total // P(U <= u)
	upper := 1.0            // P(U >= u)
	if u > 0 {
		upper = 1 - cum[u-1]/total
	}
	return math.Min(1, 2*math.Min(lower, upper))
}

// uCDF returns the cumulative counts of the null distribution of U for
// samples of n1 and n2 values without ties: element k is the number of the
// C(n1+n2, n1) equally likely arrangements with U ≤ k, for k = 0..n1·n2.
//
// It uses the recurrence f(m, n, k) = f(m−1, n, k−n) + f(m, n−1, k) (the
// largest value is either an x, beating all n y's, or a y), kept in place
// over n; all terms are positive so float64 counts stay accurate.
// Cost O(n1²·n2) time, O(n1²·n2) space.
func uCDF(n1, n2 int) []float64 {
	size := n1*n2 + 1
	f := make([][]float64, n1+1)
	for m := range f {
		f[m] = make([]float64, size)
		f[m][0] = 1 // no y's yet: U = 0 in the only arrangement
	}
	for n := 1; n <= n2; n++ {
		for m := 1; m <= n1; m++ {
			prev := f[m-1] // already f(m-1, n, ·)
			cur := f[m]    // still f(m, n-1, ·)
			for k := size - 1; k >= n; k-- {
				cur[k] += prev[k-n]
			}
		}
	}
	cum := f[n1]
	for k := 1; k < size; k++ {
		cum[k] += cum[k-1]
	}
	return cum
}

// MinPValue returns the smallest two-sided p-value the exact Mann-Whitney
// test can give for samples of n1 and n2 values: 2/C(n1+n2, n1), at most 1.
// With 5 vs 5 runs it is 0.0079; with 3 vs 3 it is 0.1, so no outcome can
// be significant at 0.05. It is 1 when either sample is empty.
func MinPValue(n1, n2 int) float64 {
	if n1 < 1 || n2 < 1 {
		return 1
	}
	c := 1.0 // C(n1+n2, n1), built up as a product
	for i := 1; i <= n1; i++ {
		c = c * float64(n2+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// MinRuns returns the smallest number of runs per side for which an equal
// split can reach p < alpha (MinPValue(n, n) < alpha): 4 for 0.05, 5 for
// 0.01. It returns 0 when alpha is outside (0, 1].
func MinRuns(alpha float64) int {
	if !(alpha > 0 && alpha <= 1) {
		return 0
	}
	n := 1
	for !below(MinPValue(n, n), alpha) {
		n++
	}
	return n
}
