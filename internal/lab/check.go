package lab

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/stampede-bench/stampede/internal/usage"
)

// missingf is the error for a missing privilege, tool or kernel feature:
// bad input (exit 2), one line saying what is missing.
func missingf(format string, a ...any) error {
	return usage.Errorf("lab needs "+format, a...)
}

func badInputf(format string, a ...any) error { return usage.Errorf(format, a...) }

// Needs are the optional kernel features a lab will use.
type Needs struct {
	// Netem is needed for delay, jitter or loss.
	Netem bool
}

// NeedsOf returns what hosts need.
func NeedsOf(hosts []HostSpec) Needs {
	var n Needs
	for _, h := range hosts {
		n.Netem = n.Netem || h.Link.needsNetem()
	}
	return n
}

// Preflight checks, before anything is built, that this process can
// build a lab: root, ip and tc, cgroup v1 cpu and cpuacct, and — in a
// scratch namespace it removes again — veth, bridge, tbf and, when n asks
// for it, netem. Its error is one line naming what is missing.
func Preflight(ctx context.Context, n Needs) error {
	if os.Geteuid() != 0 {
		return missingf("root (network namespaces, tc and cgroups): run it as root")
	}
	for _, t := range []string{"ip", "tc"} {
		if _, err := exec.LookPath(t); err != nil {
			return missingf("%s(8) from iproute2 in PATH", t)
		}
	}
	m, err := FindCgroupMounts()
	if err != nil || m.CPU == "" || m.CPUAcct == "" {
		return missingf("the cgroup v1 cpu and cpuacct controllers mounted (mount -t cgroup -o cpu,cpuacct none /sys/fs/cgroup/cpu,cpuacct)")
	}
	if _, err := os.Stat(m.CPU + "/cpu.cfs_quota_us"); err != nil {
		return missingf("CFS bandwidth control (cpu.cfs_quota_us, CONFIG_CFS_BANDWIDTH)")
	}
	ns := prefixNS + "probe" + strconv.Itoa(os.Getpid()) + strconv.FormatInt(time.Now().UnixNano()%1000, 10)
	if out, err := exec.CommandContext(ctx, "ip", "netns", "add", ns).CombinedOutput(); err != nil {
		return missingf("network namespaces (ip netns add: %s)", firstLine(out, err))
	}
	defer func() { _ = deleteNS(ns) }()
	probes := []struct {
		what string
		tool string
		args []string
	}{
		{"veth pairs (CONFIG_VETH)", "ip", []string{"-n", ns, "link", "add", "pa", "type", "veth", "peer", "name", "pb"}},
		{"bridges (CONFIG_BRIDGE)", "ip", []string{"-n", ns, "link", "add", "br0", "type", "bridge"}},
		{"the tbf qdisc (CONFIG_NET_SCH_TBF)", "tc", []string{"-n", ns, "qdisc", "add", "dev", "pa", "root", "handle", "10:", "tbf", "rate", "1mbit", "burst", "4000", "latency", "50ms"}},
	}
	if n.Netem {
		probes = append(probes, struct {
			what string
			tool string
			args []string
		}{"the netem qdisc for delay, jitter or loss (CONFIG_NET_SCH_NETEM)", "tc", []string{"-n", ns, "qdisc", "add", "dev", "pb", "root", "netem", "delay", "1ms"}})
	}
	for _, p := range probes {
		if out, err := exec.CommandContext(ctx, p.tool, p.args...).CombinedOutput(); err != nil {
			return missingf("%s (%s)", p.what, firstLine(out, err))
		}
	}
	return nil
}
