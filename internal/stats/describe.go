// Package stats holds the statistics stampede uses to compare runs: summary
// numbers (Mean, StdDevP, CV), the Mann-Whitney U test, a
// distribution-free confidence interval for a relative change, and Compare,
// which turns two sets of per-run results into a benchstat-style verdict.
//
// Everything here is a pure function of its arguments: no I/O, no package
// state, inputs are never modified. Safe for concurrent use.
package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Mean returns the arithmetic mean of xs, or NaN when xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return stat.Mean(xs, nil)
}

// StdDevP returns the population standard deviation of xs (divisor n, like
// Excel's STDEVP/STDDEVP, which is what the seed's tables report): 0 for a
// single value, NaN when xs is empty.
func StdDevP(xs []float64) float64 {
	switch len(xs) {
	case 0:
		return math.NaN()
	case 1:
		return 0
	}
	return stat.PopStdDev(xs, nil)
}

// CV returns the coefficient of variation StdDevP(xs)/Mean(xs) as a fraction
// (0.0026 = 0.26%). It is NaN when xs is empty and ±Inf or NaN when the mean
// is zero.
func CV(xs []float64) float64 {
	return StdDevP(xs) / Mean(xs)
}
