package lab

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// HostSpec is one host of a lab: a broker node or a load generator.
type HostSpec struct {
	// Name is short (1–8 of a-z0-9), unique in the lab: "n1", "c3".
	Name string
	// Link shapes its link to the bridge, both directions.
	Link Link
	// CPU is its CPU quota in cores (0.25 = a quarter of one core);
	// 0 leaves it unlimited (its usage is still measured).
	CPU float64
}

// Spec describes a lab.
type Spec struct {
	// ID names the lab's namespaces and cgroups (stl-ID-…,
	// stampede-lab-ID); default: from this process id and the time.
	ID string
	// Hosts are the lab's hosts, at most 250.
	Hosts []HostSpec
	// LedgerDir holds the ledger file that Clean reads (default
	// /run/stampede-lab).
	LedgerDir string
}

// Host is one running host of a fabric.
type Host struct {
	HostSpec
	// NS is its network namespace (ip netns name), Addr its address.
	NS   string
	Addr netip.Addr
	// Dev is its interface inside NS ("eth0"), Peer the other end on the
	// bridge in the hub namespace.
	Dev, Peer string
	// Cgroup is where its processes run.
	Cgroup Cgroup
}

// Fabric is a running lab fabric. Down removes it; its methods are safe
// for concurrent use.
type Fabric struct {
	ID string
	// Hub is the namespace with the bridge; HubAddr is the bridge's
	// address, the source of the lab's own control traffic.
	Hub     string
	HubAddr netip.Addr
	Hosts   []*Host
	// Mounts are the cgroup hierarchies used.
	Mounts CgroupMounts

	ledger string
	mu     sync.Mutex
	undo   []step
	down   bool
}

// step is one recorded creation and how to undo it.
type step struct {
	what string
	undo func() error
}

var nameRE = regexp.MustCompile(`^[a-z0-9]{1,8}$`)

// prefixNS is the prefix of every namespace a lab creates.
const prefixNS = "stl-"

// prefixCgroup is the prefix of every cgroup a lab creates.
const prefixCgroup = "stampede-lab-"

// bridgeAddr is the hub's address; hosts get 198.18.0.1… in order.
var bridgeAddr = netip.MustParseAddr("198.18.0.254")

// Up creates the fabric of s. On error, and when ctx ends before it is
// up, everything already created is removed again.
func Up(ctx context.Context, s Spec) (_ *Fabric, err error) {
	if err := validate(s); err != nil {
		return nil, err
	}
	m, err := FindCgroupMounts()
	if err != nil || m.CPU == "" || m.CPUAcct == "" {
		return nil, missingf("no cgroup v1 cpu and cpuacct controllers mounted (mount -t cgroup -o cpu,cpuacct)")
	}
	if s.ID == "" {
		s.ID = strconv.FormatInt(int64(os.Getpid())%10000, 10) + strconv.FormatInt(time.Now().UnixNano()/1e6%1000, 36)
	}
	f := &Fabric{ID: s.ID, Hub: prefixNS + s.ID + "-hub", HubAddr: bridgeAddr, Mounts: m}
	dir := s.LedgerDir
	if dir == "" {
		dir = DefaultLedgerDir
	}
	f.ledger = filepath.Join(dir, s.ID+".json")
	defer func() {
		if err != nil {
			err = errors.Join(err, f.Down())
		}
	}()
	if err := f.writeLedger(); err != nil {
		return nil, err
	}
	f.record("ledger "+f.ledger, func() error { return removeMissingOK(f.ledger) })
	// The cgroup parent first: every host cgroup lives in it.
	parent := Cgroup{CPU: filepath.Join(m.CPU, prefixCgroup+s.ID), Acct: filepath.Join(m.CPUAcct, prefixCgroup+s.ID)}
	for _, d := range parent.dirs() {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, fmt.Errorf("cgroup: %w", err)
		}
	}
	f.record("cgroup "+parent.CPU, parent.remove)
	if err := f.addNS(ctx, f.Hub); err != nil {
		return nil, err
	}
	if err := f.ip(ctx, f.Hub, "link", "add", "br0", "type", "bridge"); err != nil {
		return nil, err
	}
	for _, c := range [][]string{
		{"link", "set", "lo", "up"},
		{"addr", "add", bridgeAddr.String() + "/24", "dev", "br0"},
		{"link", "set", "br0", "up"},
	} {
		if err := f.ip(ctx, f.Hub, c...); err != nil {
			return nil, err
		}
	}
	for i, hs := range s.Hosts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h, err := f.addHost(ctx, i, hs)
		if err != nil {
			return nil, err
		}
		f.Hosts = append(f.Hosts, h)
	}
	return f, nil
}

func validate(s Spec) error {
	if len(s.Hosts) == 0 || len(s.Hosts) > 250 {
		return badInputf("a lab needs 1–250 hosts, not %d", len(s.Hosts))
	}
	if s.ID != "" && !regexp.MustCompile(`^[a-z0-9]{1,12}$`).MatchString(s.ID) {
		return badInputf("lab id %q: want 1–12 of a-z0-9", s.ID)
	}
	seen := map[string]bool{}
	for _, h := range s.Hosts {
		if !nameRE.MatchString(h.Name) || seen[h.Name] {
			return badInputf("lab host name %q: want 1–8 of a-z0-9, unique", h.Name)
		}
		seen[h.Name] = true
		if h.CPU < 0 || h.Link.Rate < 0 || h.Link.Loss < 0 || h.Link.Loss > 1 || h.Link.Delay < 0 || h.Link.Jitter < 0 {
			return badInputf("lab host %s: negative budget or loss outside 0–1", h.Name)
		}
		if h.CPU > 0 && h.CPU < 0.01 {
			return badInputf("lab host %s: CPU quota %.3g cores is below the kernel's 1 ms per 100 ms period", h.Name, h.CPU)
		}
	}
	return nil
}

// addHost creates host i: namespace, veth into the bridge, address,
// shaping, cgroup.
func (f *Fabric) addHost(ctx context.Context, i int, hs HostSpec) (*Host, error) {
	a := bridgeAddr.As4()
	a[3] = byte(i + 1)
	h := &Host{HostSpec: hs, NS: prefixNS + f.ID + "-" + hs.Name, Addr: netip.AddrFrom4(a), Dev: "eth0", Peer: "v" + hs.Name}
	if err := f.addNS(ctx, h.NS); err != nil {
		return nil, err
	}
	// Both ends are created inside lab namespaces, never in the host's.
	if err := f.ip(ctx, f.Hub, "link", "add", h.Peer, "type", "veth", "peer", "name", h.Dev, "netns", h.NS); err != nil {
		return nil, err
	}
	// gso_max_segs 1: the stack hands the link real frames, so the
	// packet counters and the shaper see what a NIC would send.
	for _, c := range []struct {
		ns   string
		args []string
	}{
		{f.Hub, []string{"link", "set", h.Peer, "gso_max_segs", "1"}},
		{f.Hub, []string{"link", "set", h.Peer, "master", "br0", "up"}},
		{h.NS, []string{"link", "set", "lo", "up"}},
		{h.NS, []string{"link", "set", h.Dev, "gso_max_segs", "1"}},
		{h.NS, []string{"addr", "add", h.Addr.String() + "/24", "dev", h.Dev}},
		{h.NS, []string{"link", "set", h.Dev, "up"}},
	} {
		if err := f.ip(ctx, c.ns, c.args...); err != nil {
			return nil, err
		}
	}
	// Egress of the host's own end is its upload; egress of the bridge's
	// end is its download.
	for _, side := range []struct{ ns, dev string }{{h.NS, h.Dev}, {f.Hub, h.Peer}} {
		for _, args := range shapeArgs(side.dev, hs.Link) {
			if err := f.tc(ctx, side.ns, args...); err != nil {
				return nil, err
			}
		}
	}
	cg, err := makeCgroup(f.Mounts, filepath.Join(prefixCgroup+f.ID, hs.Name), hs.CPU)
	f.record("cgroup "+cg.CPU, cg.remove)
	if err != nil {
		return nil, err
	}
	h.Cgroup = cg
	return h, nil
}

// addNS creates a namespace and records its deletion.
func (f *Fabric) addNS(ctx context.Context, ns string) error {
	if err := f.ipTop(ctx, "netns", "add", ns); err != nil {
		return err
	}
	f.record("netns "+ns, func() error { return deleteNS(ns) })
	return f.writeLedger()
}

func deleteNS(ns string) error {
	out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput()
	if err != nil && !strings.Contains(string(out), "No such file") {
		return fmt.Errorf("ip netns del %s: %s", ns, firstLine(out, err))
	}
	return nil
}

func removeMissingOK(p string) error {
	if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// record appends an undo step.
func (f *Fabric) record(what string, undo func() error) {
	f.mu.Lock()
	f.undo = append(f.undo, step{what, undo})
	f.mu.Unlock()
}

// Down removes everything the fabric created, in reverse order: the
// processes in its cgroups are killed first (with the cgroups), then the
// namespaces go (taking their veths and qdiscs), the ledger last. It is
// safe to call more than once; it returns every failure.
func (f *Fabric) Down() error {
	f.mu.Lock()
	if f.down {
		f.mu.Unlock()
		return nil
	}
	f.down = true
	steps := f.undo
	f.undo = nil
	f.mu.Unlock()
	var errs []error
	// Cgroups (with their processes) before namespaces: a process that
	// still runs keeps nothing alive, but it should not outlive the lab.
	for _, pass := range []bool{true, false} {
		for i := len(steps) - 1; i >= 0; i-- {
			s := steps[i]
			if strings.HasPrefix(s.what, "cgroup ") != pass {
				continue
			}
			if err := s.undo(); err != nil {
				errs = append(errs, fmt.Errorf("remove %s: %w", s.what, err))
			}
		}
	}
	return errors.Join(errs...)
}

// Host returns the host named name, or nil.
func (f *Fabric) Host(name string) *Host {
	for _, h := range f.Hosts {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// ip runs "ip -n NS ARGS...".
func (f *Fabric) ip(ctx context.Context, ns string, args ...string) error {
	return f.ipTop(ctx, append([]string{"-n", ns}, args...)...)
}

func (f *Fabric) ipTop(ctx context.Context, args ...string) error {
	return runTool(ctx, "ip", args...)
}

func (f *Fabric) tc(ctx context.Context, ns string, args ...string) error {
	return runTool(ctx, "tc", append([]string{"-n", ns}, args...)...)
}

// runTool runs a command; its error is one line with the tool's message.
func runTool(ctx context.Context, name string, args ...string) error {
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %s", name, strings.Join(args, " "), firstLine(out, err))
	}
	return nil
}

func firstLine(out []byte, err error) string {
	s := strings.TrimSpace(string(out))
	if s == "" {
		return err.Error()
	}
	l, _, _ := strings.Cut(s, "\n")
	return l
}
