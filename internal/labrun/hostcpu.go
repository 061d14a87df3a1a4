package labrun

import (
	"os"
	"runtime"
	"strconv"
	"strings"
)

// hostCPU is the whole machine's CPU counters (/proc/stat, first line),
// in clock ticks: busy and total.
type hostCPU struct{ busy, total float64 }

func readHostCPU() hostCPU {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return hostCPU{}
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	var h hostCPU
	for i, v := range f[1:] {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue
		}
		if i >= 8 { // guest, guest_nice are already in user, nice
			break
		}
		h.total += n
		if i != 3 && i != 4 { // idle, iowait
			h.busy += n
		}
	}
	return h
}

// busyBetween is the fraction (0–1) of the machine's CPU time that was
// busy between two readings.
func busyBetween(a, b hostCPU) float64 {
	if b.total <= a.total {
		return 0
	}
	return (b.busy - a.busy) / (b.total - a.total)
}

// load1 is the one-minute load average.
func load1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// cores is this machine's CPU count.
func cores() int { return runtime.NumCPU() }
