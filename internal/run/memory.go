package run

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/output"
)

// Memory a run is planned with, per VU. vuBytes covers what the engine
// holds for an idle VU (its goroutine's stack, recorder, iteration state
// and the scenario's VU value): BenchmarkIdleVUMemory measures 2.9 KB of
// heap and stacks per VU at 100,000 VUs, and the whole program's RSS per
// idle VU was 3–4 KB in one earlier run (bench/HISTORY.md); the plan takes about twice that
// to leave room for the runtime's and the kernel's overhead. Outputs add
// their own share (output.Factory.VUBytes: the per-request CSV's writer
// and buffer, which the log's budget bounds). Connections a driver opens per VU come on top
// and are not estimated: the plan is a lower bound.
const (
	vuBytes = 6 << 10
	// memReserve is kept free for everything that is not a VU: the
	// aggregator's histograms, output buffers, the Go runtime (bytes).
	memReserve = 512 << 20
)

// CheckMemory refuses a plan whose VUs cannot fit in the memory the
// machine has available with a usage error of one line saying how many
// VUs fit. Scenarios that run one after the other need the largest
// scenario's VUs; concurrent ones (Plan.Concurrent) the sum. available is
// in bytes (0: unknown, no check); AvailableMemory reads it. Each VU
// needs vuBytes and what the plan's outputs need per VU
// (output.Factory.VUBytes of reg; nil: none).
func CheckMemory(p Plan, reg *output.Registry, available int64) error {
	if available <= 0 {
		return nil
	}
	var need int64 // VUs
	for _, s := range p.Scenarios {
		if n := s.Config.MaxVUsNeeded(); p.Concurrent {
			need += n
		} else {
			need = max(need, n)
		}
	}
	per := int64(vuBytes)
	for _, o := range p.Outputs {
		if f, ok := reg.Lookup(o.Kind); ok {
			per += f.VUBytes
		}
	}
	usable := max(available-memReserve, 0)
	if need <= usable/per {
		return nil
	}
	return usagef("%s VUs need about %s of memory (≈%s each) but %s is available: at most %s VUs fit; lower -u/--vus, --max-vus or the stage targets",
		groupDigits(need), fmtBytes(float64(need)*float64(per)), fmtBytes(float64(per)), fmtBytes(float64(available)), groupDigits(usable/per))
}

// AvailableMemory is the memory this process may still use, in bytes: the
// kernel's MemAvailable, or the cgroup's limit when that is lower. 0 when
// neither can be read (then the plan is not checked).
func AvailableMemory() int64 {
	var avail int64
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				avail = kb << 10
			}
		}
		f.Close()
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if lim, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && lim > 0 && (avail == 0 || lim < avail) {
			avail = lim
		}
	}
	return avail
}

// groupDigits writes n with thousands separators: 1,000,000.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fmtBytes formats a byte count with a binary unit: 7.6 TiB, 512 MiB.
func fmtBytes(n float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	if n >= 100 || i == 0 {
		return fmt.Sprintf("%.0f %s", n, units[i])
	}
	return fmt.Sprintf("%.1f %s", n, units[i])
}
