package msgload

import (
	"context"
	"fmt"
	"time"
)

// FmtRate formats a rate with thousands separators, one decimal below 100.
func FmtRate(r float64) string {
	if r < 100 {
		return fmt.Sprintf("%.1f", r)
	}
	n := int64(r + 0.5)
	s := fmt.Sprint(n)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	return string(out)
}

// Spread returns the lowest and highest of xs and their count.
func Spread(xs []float64) (lo, hi float64, n int) {
	for i, x := range xs {
		if i == 0 || x < lo {
			lo = x
		}
		if i == 0 || x > hi {
			hi = x
		}
	}
	return lo, hi, len(xs)
}

// Churn phases: before, during and after the churn (or fault) window.
const (
	PhaseBefore = 0
	PhaseDuring = 1
	PhaseAfter  = 2
)

// PhaseName is the tag value of phase p: before, during or after.
func PhaseName(p int) string {
	switch p {
	case PhaseBefore:
		return "before"
	case PhaseDuring:
		return "during"
	}
	return "after"
}

// Phase is the phase of run offset at for a scenario that started at start
// and whose window opens at from and lasts for.
func Phase(at, start, from, length time.Duration) int {
	switch d := at - start; {
	case d < from:
		return PhaseBefore
	case d < from+length:
		return PhaseDuring
	}
	return PhaseAfter
}

// SleepCtx sleeps d or until ctx ends; it reports whether d elapsed.
func SleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// FmtLatency formats a latency to about three significant digits: 850µs,
// 12.34ms, 1.234s.
func FmtLatency(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < 100*time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	case d < 10*time.Second:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(100 * time.Millisecond).String()
}
