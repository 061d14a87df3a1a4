package monitor

import (
	"fmt"
	"strings"
)

// Saturated reports whether the CPU was busy (above Threshold) in at least
// a fifth of the window's seconds, and in one at least: the generator
// self-check's rule.
func (st Stats) Saturated() bool { return st.CPUBusy > 0 && st.CPUBusy*5 >= st.Samples }

// NICBound reports the same of the busiest interface against its speed.
func (st Stats) NICBound() bool { return st.NICBusy > 0 && st.NICBusy*5 >= st.Samples }

// Warning is the note for a saturated source, or "".
func (st Stats) Warning() string {
	var parts []string
	if st.Saturated() {
		what := "CPU"
		if !st.Host {
			what = "process CPU"
		}
		parts = append(parts, fmt.Sprintf("%s above %.0f%% of its %s cores in %d of %d s (max %.0f%%)",
			what, 100*Threshold, fmtNum(st.Cores), st.CPUBusy, st.Samples, 100*st.CPUMax))
	}
	if st.NICBound() {
		parts = append(parts, fmt.Sprintf("network %s above %.0f%% of its %s link in %d of %d s (peak %s)",
			st.NetPeakDev, 100*NICThreshold, FmtBits(st.NetSpeed), st.NICBusy, st.Samples, FmtBytesRate(st.NetPeak)))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("target %s saturated: %s: the numbers measure the target's limit", st.Source, strings.Join(parts, "; "))
}

// GroupsNote names the process-exporter groups summed into the source's
// process figures (and the target's CPU), or "" when it has none.
func (st Stats) GroupsNote() string {
	if len(st.Groups) == 0 {
		return ""
	}
	return fmt.Sprintf("monitor %s: process figures and target CPU sum the process-exporter groups %s (the source's #group=NAME items choose them; without any, every group counts)",
		st.Source, strings.Join(st.Groups, ", "))
}

// FailureNote says how many readings failed, or "".
func (st Stats) FailureNote() string {
	if st.Failed == 0 {
		return ""
	}
	return fmt.Sprintf("monitor %s: %d of %d readings failed (last: %s); its figures cover the rest",
		st.Source, st.Failed, st.Failed+st.Samples, st.LastErr)
}

// Line is the one-line summary of the source for the console.
func (st Stats) Line() string {
	var parts []string
	if st.Host {
		parts = append(parts, fmt.Sprintf("CPU avg %.0f%% max %.0f%% of %s cores", 100*st.CPUAvg, 100*st.CPUMax, fmtNum(st.Cores)))
	}
	if st.Proc {
		parts = append(parts, fmt.Sprintf("process CPU avg %.2f max %.2f cores, RSS %s, %s threads",
			st.ProcCPUAvg, st.ProcCPUMax, FmtBytes(st.ProcRSSMax), fmtNum(st.ProcThreads)))
	}
	if st.MemTotal > 0 {
		parts = append(parts, fmt.Sprintf("mem %s of %s", FmtBytes(st.MemUsedMax), FmtBytes(st.MemTotal)))
	}
	if st.NetPeakDev != "" {
		parts = append(parts, fmt.Sprintf("net peak %s (%s), rx max %s tx max %s", FmtBytesRate(st.NetPeak), st.NetPeakDev,
			FmtBytesRate(st.NetRxMax), FmtBytesRate(st.NetTxMax)))
	}
	if st.DiskReadMax > 0 || st.DiskWriteMax > 0 || st.DiskIOMax > 0 {
		parts = append(parts, fmt.Sprintf("disk r %s w %s, IO %.0f%%", FmtBytesRate(st.DiskReadMax), FmtBytesRate(st.DiskWriteMax), 100*st.DiskIOMax))
	}
	if len(parts) == 0 {
		if st.Samples == 0 {
			return "no reading succeeded"
		}
		return fmt.Sprintf("%d samples (extra metrics only)", st.Samples)
	}
	return strings.Join(parts, "; ")
}

// TargetCPU is the CPU time the target used in a window, seconds, from a
// window's Stats: the processes' when any source reports processes (they
// are the target), else the hosts' busy time. ok is false without either.
//
// One target's CPU is never counted twice: a pid= source (read from
// /proc, exact) and a process-exporter on the same machine usually watch
// the same processes, so when pid= sources report, only they count;
// process-exporter groups and servers' own process metrics count when no
// pid= source does.
func TargetCPU(stats []Stats) (secs float64, ok bool) {
	var pid, proc, host float64
	var havePID, haveProc, haveHost bool
	for _, st := range stats {
		switch {
		case st.Proc && strings.HasPrefix(st.Source, KindPID+":"):
			pid += st.procSec
			havePID = true
		case st.Proc:
			proc += st.procSec
			haveProc = true
		}
		if st.Host {
			host += st.hostSec
			haveHost = true
		}
	}
	switch {
	case havePID:
		return pid, true
	case haveProc:
		return proc, true
	case haveHost:
		return host, true
	}
	return 0, false
}
