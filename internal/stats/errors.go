package stats

import (
	"errors"
	"fmt"
	"math"
)

// Errors returned by the tests and estimators; match them with errors.Is.
var (
	// ErrNoData: a sample is empty.
	ErrNoData = errors.New("empty sample")
	// ErrBadValue: a sample holds NaN or ±Inf, or a value a method cannot
	// take (ChangeCI needs positive values).
	ErrBadValue = errors.New("bad sample value")
	// ErrTooFewRuns: the samples are too small for the requested
	// confidence level (see MinPValue).
	ErrTooFewRuns = errors.New("too few runs")
)

// checkSample reports ErrNoData or ErrBadValue for a sample named name.
// With positive set, values must also be > 0.
func checkSample(name string, xs []float64, positive bool) error {
	if len(xs) == 0 {
		return fmt.Errorf("%s: %w", name, ErrNoData)
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s[%d] = %v: %w", name, i, x, ErrBadValue)
		}
		if positive && x <= 0 {
			return fmt.Errorf("%s[%d] = %v, want > 0: %w", name, i, x, ErrBadValue)
		}
	}
	return nil
}
