// Package selfcheck watches the load generator itself: it samples this
// process's CPU time and resident memory every second during a run, so that
// results limited by the client rather than by the target are flagged.
//
// CPU use is a fraction of the cores the Go scheduler may use
// (GOMAXPROCS, which follows CPU quotas): 1.0 means every usable core was
// busy for the whole second. When the generator was above Threshold for a
// fifth of a scenario's seconds or more, its numbers may measure the client.
//
// The whole machine's CPU use is sampled too (Linux /proc/stat): a
// generator starved by other processes on its machine (a co-located target,
// other jobs, a noisy VM neighbour) shows little CPU of its own, yet is
// just as unable to offer more load. A busy machine is flagged the same way.
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
	// interval (at least MinInterval) and the usable cores: 0–1, never
	// above 1 (threads outside GOMAXPROCS, such as those blocked in
	// system calls, and accounting granularity can add more CPU time than
	// the cores had; the figure is capped at all the cores).
	CPU float64 `json:"cpu"`
	// RSS is the resident memory at Time, bytes.
	RSS int64 `json:"rss"`
	// Host is the busy fraction of the whole machine's CPUs during the
	// interval (0–1), when known.
	Host float64 `json:"host,omitempty"`
	// Throttled is the fraction of the CPU quota's enforcement periods in
	// which the generator's cgroup ran out of quota (0–1), Held the
	// fraction of the interval it was held back; both 0 without a quota.
	Throttled float64 `json:"throttled,omitempty"`
	Held      float64 `json:"held,omitempty"`
}

// ThrottleThreshold is the fraction of a second's quota periods that must
// have run out of quota for the second to count as busy: 0.2. A generator
// its cgroup holds back wants more CPU than it gets, whatever its CPU
// figure says.
const ThrottleThreshold = 0.2

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
	// N is the number of samples, Busy those above the threshold or
	// throttled (Throttled of them by the cgroup's CPU quota, above
	// ThrottleThreshold of its periods) and HostBusy those where the
	// whole machine was above the threshold.
	N, Busy, HostBusy, Throttled int
	// MaxThrottled is the highest fraction of periods throttled, AvgHeld
	// the mean fraction of the time held back by the quota.
	MaxThrottled, AvgHeld float64
	// MaxCPU and AvgCPU are fractions of the usable cores; MaxHost and
	// AvgHost the machine's busy fraction.
	MaxCPU, AvgCPU   float64
	MaxHost, AvgHost float64
	// MaxRSS is the largest resident memory seen, bytes.
	MaxRSS int64
}

// Saturated reports whether the generator was busy in at least a fifth of
// the window's seconds (and in at least one).
func (s Stats) Saturated() bool { return s.Busy > 0 && s.Busy*5 >= s.N }

// HostSaturated reports the same of the whole machine.
func (s Stats) HostSaturated() bool { return s.HostBusy > 0 && s.HostBusy*5 >= s.N }

// Window returns the statistics of the samples whose interval overlaps
// [from, to]; zero times leave that side open.
func (r *Report) Window(from, to time.Time) Stats {
	var st Stats
	var sum, hsum float64
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
		throttled := s.Throttled > ThrottleThreshold
		if throttled {
			st.Throttled++
		}
		if s.CPU > r.threshold() || throttled {
			st.Busy++
		}
		st.MaxThrottled = max(st.MaxThrottled, s.Throttled)
		st.AvgHeld += s.Held
		hsum += s.Host
		st.MaxHost = max(st.MaxHost, s.Host)
		if s.Host > r.threshold() {
			st.HostBusy++
		}
	}
	if st.N > 0 {
		st.AvgHeld /= float64(st.N)
		st.AvgCPU = sum / float64(st.N)
		st.AvgHost = hsum / float64(st.N)
	}
	return st
}

// Warning returns the one-line warning for a window, or "" when the
// generator was not saturated in it.
func (r *Report) Warning(from, to time.Time) string {
	st := r.Window(from, to)
	switch {
	case st.Saturated() && st.Throttled*5 >= st.N:
		return fmt.Sprintf("generator throttled by its cgroup's CPU quota in %d of %d s (up to %.0f%% of the quota periods; held back %.0f%% of the time; CPU averaged %.0f%% of its %d cores): numbers are limited by the client, not the target",
			st.Throttled, st.N, 100*st.MaxThrottled, 100*st.AvgHeld, 100*st.AvgCPU, r.Cores)
	case st.Saturated():
		return fmt.Sprintf("generator CPU above %.0f%% of its %d cores in %d of %d s (max %.0f%%): numbers may be limited by the client, not the target",
			100*r.threshold(), r.Cores, st.Busy, st.N, 100*st.MaxCPU)
	case st.HostSaturated():
		return fmt.Sprintf("the generator's machine was above %.0f%% CPU in %d of %d s (the generator itself averaged %.0f%% of its %d cores): other processes competed with the client, numbers may be limited by the client, not the target",
			100*r.threshold(), st.HostBusy, st.N, 100*st.AvgCPU, r.Cores)
	}
	return ""
}

func (r *Report) threshold() float64 {
	if r.Threshold > 0 {
		return r.Threshold
	}
	return Threshold
}
