package lab

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// CgroupMounts are where the cgroup v1 cpu and cpuacct controllers are
// mounted (the same directory when they are co-mounted, as cpu,cpuacct).
type CgroupMounts struct {
	CPU, CPUAcct string
}

// parseMountinfo finds the cgroup v1 cpu and cpuacct hierarchies in the
// text of /proc/self/mountinfo. A field is empty when its controller is
// not mounted.
func parseMountinfo(r io.Reader) (CgroupMounts, error) {
	var m CgroupMounts
	sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		pf, qf := strings.Fields(pre), strings.Fields(post)
		if len(pf) < 5 || len(qf) < 3 || qf[0] != "cgroup" {
			continue
		}
		for _, opt := range strings.Split(qf[2], ",") {
			switch {
			case opt == "cpu" && m.CPU == "":
				m.CPU = unescapeMount(pf[4])
			case opt == "cpuacct" && m.CPUAcct == "":
				m.CPUAcct = unescapeMount(pf[4])
			}
		}
	}
	return m, sc.Err()
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// FindCgroupMounts reads /proc/self/mountinfo.
func FindCgroupMounts() (CgroupMounts, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return CgroupMounts{}, err
	}
	defer f.Close()
	return parseMountinfo(f)
}

// Cgroup is one host's pair of cgroup directories (cpu for the quota,
// cpuacct for the usage; one directory when co-mounted).
type Cgroup struct {
	CPU, Acct string
}

// cfsPeriod is the quota period the lab sets, in µs (the kernel default).
const cfsPeriod = 100000

// quotaUS is the cpu.cfs_quota_us for cores CPUs per period (-1: none).
func quotaUS(cores float64) int64 {
	if cores <= 0 {
		return -1
	}
	q := int64(cores*cfsPeriod + 0.5)
	return max(q, 1000) // the kernel's minimum is 1 ms
}

func writeFile(path, s string) error {
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// makeCgroup creates the directories and sets the quota (cores <= 0:
// unlimited).
func makeCgroup(m CgroupMounts, rel string, cores float64) (Cgroup, error) {
	cg := Cgroup{CPU: filepath.Join(m.CPU, rel), Acct: filepath.Join(m.CPUAcct, rel)}
	for _, d := range cg.dirs() {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return cg, fmt.Errorf("cgroup: %w", err)
		}
	}
	if err := writeFile(filepath.Join(cg.CPU, "cpu.cfs_period_us"), strconv.Itoa(cfsPeriod)); err != nil {
		return cg, err
	}
	return cg, writeFile(filepath.Join(cg.CPU, "cpu.cfs_quota_us"), strconv.FormatInt(quotaUS(cores), 10))
}

// dirs are the distinct directories of cg.
func (cg Cgroup) dirs() []string {
	if cg.Acct == cg.CPU {
		return []string{cg.CPU}
	}
	return []string{cg.CPU, cg.Acct}
}

// CPUSample is what a host's cgroup reports at one moment.
type CPUSample struct {
	At time.Time
	// Usage is the CPU time all the cgroup's tasks used (cpuacct.usage).
	Usage time.Duration
	// Periods and Throttled count quota periods, and those in which the
	// cgroup ran out of quota (cpu.stat nr_periods, nr_throttled);
	// ThrottledTime is how long its tasks waited for quota.
	Periods, Throttled int64
	ThrottledTime      time.Duration
	// QuotaCores is the quota in CPUs, read back (0: unlimited).
	QuotaCores float64
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// Sample reads the cgroup's counters and its quota.
func (cg Cgroup) Sample() (CPUSample, error) {
	s := CPUSample{At: time.Now()}
	u, err := readInt(filepath.Join(cg.Acct, "cpuacct.usage"))
	if err != nil {
		return s, fmt.Errorf("cgroup usage: %w", err)
	}
	s.Usage = time.Duration(u)
	b, err := os.ReadFile(filepath.Join(cg.CPU, "cpu.stat"))
	if err != nil {
		return s, fmt.Errorf("cgroup cpu.stat: %w", err)
	}
	s.Periods, s.Throttled, s.ThrottledTime = parseCPUStat(string(b))
	q, err1 := readInt(filepath.Join(cg.CPU, "cpu.cfs_quota_us"))
	p, err2 := readInt(filepath.Join(cg.CPU, "cpu.cfs_period_us"))
	if err := errors.Join(err1, err2); err != nil {
		return s, fmt.Errorf("cgroup quota: %w", err)
	}
	if q > 0 && p > 0 {
		s.QuotaCores = float64(q) / float64(p)
	}
	return s, nil
}

// parseCPUStat reads nr_periods, nr_throttled and throttled_time (ns)
// from cpu.stat.
func parseCPUStat(s string) (periods, throttled int64, throttledTime time.Duration) {
	for _, line := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "nr_periods":
			periods = n
		case "nr_throttled":
			throttled = n
		case "throttled_time":
			throttledTime = time.Duration(n)
		}
	}
	return
}

// pids lists the processes in the cgroup.
func (cg Cgroup) pids() []int {
	b, err := os.ReadFile(filepath.Join(cg.CPU, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// remove kills every process left in the cgroup, waits (up to 5 s) until
// it is empty, and removes its directories.
func (cg Cgroup) remove() error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		ps := cg.pids()
		if len(ps) == 0 {
			break
		}
		for _, p := range ps {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroup %s: %d process(es) would not die", cg.CPU, len(ps))
		}
		time.Sleep(20 * time.Millisecond)
	}
	var errs []error
	for _, d := range cg.dirs() {
		if err := os.Remove(d); err != nil && !os.IsNotExist(err) {
			errs = append(errs, fmt.Errorf("cgroup: %w", err))
		}
	}
	return errors.Join(errs...)
}
