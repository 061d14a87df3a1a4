package selfcheck

import (
	"bytes"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
)

// Throttle is the CPU throttling of a cgroup (cpu.stat), cumulative:
// enforcement periods, periods in which the cgroup ran out of its CPU
// quota (cpu.max, or cpu.cfs_quota_us under cgroup v1), and the time it
// was held back. A generator held to a quota shows little CPU of its own
// and is just as unable to offer more load.
type Throttle struct {
	Periods, Throttled uint64
	Time               time.Duration
}

// parseCPUStat reads a cpu.stat file: cgroup v2 (throttled_usec) or v1
// (throttled_time, ns). ok is false when it has no throttling fields.
func parseCPUStat(b []byte) (t Throttle, ok bool) {
	for _, line := range bytes.Split(b, []byte("\n")) {
		k, v, found := bytes.Cut(line, []byte(" "))
		if !found {
			continue
		}
		n, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 10, 64)
		if err != nil {
			continue
		}
		switch string(k) {
		case "nr_periods":
			t.Periods, ok = n, true
		case "nr_throttled":
			t.Throttled = n
		case "throttled_usec":
			t.Time = time.Duration(n) * time.Microsecond
		case "throttled_time":
			t.Time = time.Duration(n)
		}
	}
	return t, ok
}

// cgroupCPUDirs lists the directories whose cpu.stat may account this
// process's throttling, innermost first: its cgroup and each ancestor
// (a quota on any of them throttles it), from /proc/self/cgroup's
// contents b, under root (/sys/fs/cgroup). cgroup v2's unified line
// ("0::/path") and v1's cpu controller line ("N:cpu,cpuacct:/path") are
// both understood.
func cgroupCPUDirs(b []byte, root string) []string {
	var rel, base string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		switch {
		case f[0] == "0" && f[1] == "":
			if base == "" {
				rel, base = f[2], root
			}
		case hasController(f[1], "cpu"):
			rel, base = f[2], path.Join(root, f[1])
		}
	}
	if base == "" {
		return nil
	}
	var out []string
	for p := path.Clean("/" + rel); ; p = path.Dir(p) {
		out = append(out, path.Join(base, p))
		if p == "/" {
			return out
		}
	}
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readThrottle reads the throttling of this process's cgroups: for each
// level its cpu.stat (levels without one are skipped), keyed by directory.
func readThrottle(readFile func(string) ([]byte, error)) map[string]Throttle {
	b, err := readFile("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	var out map[string]Throttle
	for _, dir := range cgroupCPUDirs(b, "/sys/fs/cgroup") {
		st, err := readFile(path.Join(dir, "cpu.stat"))
		if err != nil {
			continue
		}
		if t, ok := parseCPUStat(st); ok {
			if out == nil {
				out = map[string]Throttle{}
			}
			out[dir] = t
		}
	}
	return out
}

// throttledOf is the throttling between two readings: of the cgroup level
// that was throttled the most (the one whose quota binds), as the
// fraction of its periods that ran out of quota (0–1) and the fraction of
// the interval el it was held back (0–1).
func throttledOf(prev, cur map[string]Throttle, el time.Duration) (periods, held float64) {
	for dir, c := range cur {
		p, ok := prev[dir]
		if !ok || c.Periods < p.Periods || c.Throttled < p.Throttled || c.Time < p.Time {
			continue
		}
		if dp := c.Periods - p.Periods; dp > 0 {
			periods = max(periods, min(float64(c.Throttled-p.Throttled)/float64(dp), 1))
		}
		if el > 0 {
			held = max(held, min(float64(c.Time-p.Time)/float64(el), 1))
		}
	}
	return periods, held
}

// osReadFile is os.ReadFile, bounded: cgroup files are small.
func osReadFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 64<<10)
	n, err := f.Read(b)
	if n == 0 && err != nil {
		return nil, err
	}
	return b[:n], nil
}
