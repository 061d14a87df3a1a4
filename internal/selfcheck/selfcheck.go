// Package selfcheck watches the load generator itself: it samples this
// process's CPU time and resident memory every second during a run, so that
// results limited by the client rather than by the target are flagged.
//
// CPU use is a fraction of the cores the Go scheduler may use
// (GOMAXPROCS, which follows CPU quotas): 1.0 means every usable core was
// busy for the whole second. When the generator was above Threshold for a
// fifth of a scenario's seconds or more, its numbers may measure the client.
package selfcheck

import (
	"fmt"
	"time"
)

// Threshold is the CPU fraction of the usable cores above which a second
// counts as busy: 0.85.
const Threshold = 0.85

// File is the name of the samples file in a result directory.
const File = "selfcheck.json"

// Sample is one interval of the generator process.
type Sample struct {
	// Time is the end of the interval (wall clock).
	Time time.Time `json:"t"`
	// CPU is user+system CPU time during the interval divided by the
	// interval and the usable cores (0–1; rounding may exceed 1 slightly).
	CPU float64 `json:"cpu"`
	// RSS is the resident memory at Time, bytes.
	RSS int64 `json:"rss"`
}

// Report is what a Sampler saw during a run; it is written as File.
type Report struct {
	// Cores is the number of cores the process could use (GOMAXPROCS).
	Cores int `json:"cores"`
	// Threshold is the busy threshold in force (Threshold).
	Threshold float64  `json:"threshold"`
	Samples   []Sample `json:"samples"`
}

// Stats summarize the samples of a time window.
type Stats struct {
	// N is the number of samples, Busy those above the threshold.
	N, Busy int
	// MaxCPU and AvgCPU are fractions of the usable cores.
	MaxCPU, AvgCPU float64
	// MaxRSS is the largest resident memory seen, bytes.
	MaxRSS int64
}

// Saturated reports whether the generator was busy in at least a fifth of
// the window's seconds (and in at least one).
func (s Stats) Saturated() bool { return s.Busy > 0 && s.Busy*5 >= s.N }

// Window returns the statistics of the samples whose interval overlaps
// [from, to]; zero times leave that side open.
func (r *Report) Window(from, to time.Time) Stats {
	var st Stats
	var sum float64
	for _, s := range r.Samples {
		// A sample covers the second before its Time.
		if !from.IsZero() && !s.Time.After(from) {
			continue
		}
		if !to.IsZero() && s.Time.Add(-time.Second).After(to) {
			continue
		}
		st.N++
		sum += s.CPU
		st.MaxCPU = max(st.MaxCPU, s.CPU)
		st.MaxRSS = max(st.MaxRSS, s.RSS)
		if s.CPU > r.threshold() {
			st.Busy++
		}
	}
	if st.N > 0 {
		st.AvgCPU = sum / float64(st.N)
	}
	return st
}

// Warning returns the one-line warning for a window, or "" when the
// generator was not saturated in it.
func (r *Report) Warning(from, to time.Time) string {
	st := r.Window(from, to)
	if !st.Saturated() {
		return ""
	}
	return fmt.Sprintf("generator CPU above %.0f%% of its %d cores in %d of %d s (max %.0f%%): numbers may be limited by the client, not the target",
		100*r.threshold(), r.Cores, st.Busy, st.N, 100*st.MaxCPU)
}

func (r *Report) threshold() float64 {
	if r.Threshold > 0 {
		return r.Threshold
	}
	return Threshold
}
