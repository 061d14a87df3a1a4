package labrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/flags"
	"github.com/stampede-bench/stampede/internal/lab"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
)

// options are the flags of `stampede lab`.
type options struct {
	nodes, clients, topics, profile          string
	link, clientLink, fsync, out, dataDir    string
	clientsPerNode, nodeCPU, clientCPU, cpuB float64
	size, vus, window                        int
	windowD, warmup, delay, jitter           time.Duration
	loss                                     float64
}

func (o *options) bind(fs flags.Set) {
	fs.StringVar(&o.nodes, "nodes", "1,2,3,4,5,6", "node counts (nodes, budgets presets) or the one node count (clients, topics; default 3)")
	fs.StringVar(&o.clients, "clients", "", "client counts of the clients preset (default 1…2×nodes)")
	fs.Float64Var(&o.clientsPerNode, "clients-per-node", 2, "clients per node in the nodes, topics and budgets presets")
	fs.StringVar(&o.topics, "topics", "", "streams per generator of the topics preset (default 1,4,16,64)")
	fs.StringVar(&o.profile, "profile", HighThroughput, "high-throughput (R1), high-reliability (R3) or both; both publish asynchronously")
	fs.StringVar(&o.link, "link", "10mbit", "each node's link rate, both directions (tc tbf), e.g. 10mbit, 20Mbit/s, 1G")
	fs.StringVar(&o.clientLink, "client-link", "", "each client's link rate (default: --link)")
	fs.DurationVar(&o.delay, "delay", 0, "one-way delay added to every link (netem)")
	fs.DurationVar(&o.jitter, "jitter", 0, "variation of --delay (netem)")
	fs.Float64Var(&o.loss, "loss", 0, "per cent of packets dropped on every link (netem)")
	fs.Float64Var(&o.nodeCPU, "node-cpu", 0.25, "each node's CPU quota in cores (cgroup cpu.cfs_quota_us; 0: unlimited)")
	fs.Float64Var(&o.clientCPU, "client-cpu", 0.25, "each client's CPU quota in cores (0: unlimited)")
	fs.Float64Var(&o.cpuB, "cpu-bound-cpu", 0.015, "node CPU quota of the budgets preset's CPU-bound series, cores")
	fs.IntVar(&o.size, "message-size", 2048, "payload bytes (the seed's 2 KB)")
	fs.IntVar(&o.vus, "vus", 2, "publishing VUs per generator process")
	fs.IntVar(&o.window, "async-window", 64, "messages in flight per VU")
	fs.DurationVar(&o.windowD, "window", 6*time.Second, "measured window of each step")
	fs.DurationVar(&o.warmup, "warmup", 2*time.Second, "time after every stream receives before the window opens")
	fs.StringVar(&o.fsync, "fsync", "default", "nodes fsync: default (background, the seed's 异步落盘) or always")
	fs.StringVar(&o.out, "out", "", "result directory (default stampede-results/lab-TIMESTAMP)")
	fs.StringVar(&o.dataDir, "data-dir", "stampede-data", "parent of the lab's scratch directory (node stores; removed at the end)")
}

// Command returns `stampede lab [PRESET]`: this package's experiments,
// each broker node in its own network namespace with a shaped link and a
// CPU quota (package lab); and `stampede lab clean`, which removes what a
// killed lab left behind.
func Command() workload.Command {
	o := &options{}
	return workload.Command{
		Use:     "lab [nodes|clients|topics|budgets]",
		Short:   CommandShort,
		Long:    CommandLong,
		Example: CommandExample,
		MaxArgs: 1,
		Flags:   o.bind,
		Run:     func(ctx context.Context, env *workload.CommandEnv) error { return runLab(ctx, env, *o) },
		Sub: []workload.Command{{
			Use:   "clean",
			Short: "Remove the namespaces, cgroups and processes of labs whose stampede was killed",
			Run:   func(_ context.Context, env *workload.CommandEnv) error { return clean(env) },
		}},
	}
}

// plan translates the flags into the lab's plan and its result directory.
func (o options) plan(env *workload.CommandEnv) (*Plan, error) {
	preset := PresetNodes
	if len(env.Args) == 1 {
		preset = env.Args[0]
	}
	p := &Plan{Preset: preset, ClientsPerNode: o.clientsPerNode, CPUBoundCPU: o.cpuB}
	if !env.Changed("nodes") && (preset == PresetClients || preset == PresetTopics) {
		o.nodes = "3"
	}
	for flag, only := range map[string]string{"clients": PresetClients, "topics": PresetTopics, "cpu-bound-cpu": PresetBudgets} {
		if env.Changed(flag) && preset != only {
			return nil, usage.Errorf("--%s applies to the %s preset, not %s", flag, only, preset)
		}
	}
	var err error
	if p.Nodes, err = workload.ParseIntList("--nodes", o.nodes); err != nil {
		return nil, err
	}
	if p.Clients, err = workload.ParseIntList("--clients", o.clients); err != nil {
		return nil, err
	}
	if p.Topics, err = workload.ParseIntList("--topics", o.topics); err != nil {
		return nil, err
	}
	switch o.profile {
	case HighThroughput, HighReliability:
		p.Profiles = []string{o.profile}
	case "both":
		p.Profiles = []string{HighThroughput, HighReliability}
	default:
		return nil, usage.Errorf("--profile %q: want high-throughput, high-reliability or both", o.profile)
	}
	if o.fsync != "always" && o.fsync != "default" {
		return nil, usage.Errorf("--fsync %q: want always or default", o.fsync)
	}
	nl, err := linkRate("--link", o.link)
	if err != nil {
		return nil, err
	}
	cl := nl
	if o.clientLink != "" {
		if cl, err = linkRate("--client-link", o.clientLink); err != nil {
			return nil, err
		}
	}
	if o.loss < 0 || o.loss > 100 || o.nodeCPU < 0 || o.clientCPU < 0 || o.windowD <= 0 || o.warmup < 0 {
		return nil, usage.Errorf("--loss is a per cent (0–100); --node-cpu, --client-cpu not negative; --window > 0")
	}
	shape := lab.Link{Delay: o.delay, Jitter: o.jitter, Loss: o.loss / 100}
	nodeLink, cliLink := shape, shape
	nodeLink.Rate, cliLink.Rate = nl, cl
	p.Base = Config{Exe: "", VUs: o.vus, NodeLink: nodeLink, ClientLink: cliLink, NodeCPU: o.nodeCPU, ClientCPU: o.clientCPU,
		FsyncAlways: o.fsync == "always", MessageSize: o.size, AsyncWindow: o.window, Warmup: o.warmup, Window: o.windowD}
	if _, err := p.Series(); err != nil {
		return nil, err
	}
	return p, nil
}

func runLab(ctx context.Context, env *workload.CommandEnv, o options) error {
	p, err := o.plan(env)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("lab: own executable: %w", err)
	}
	p.Base.Exe = exe
	out := o.out
	if out == "" {
		out = filepath.Join("stampede-results", "lab-"+time.Now().Format("20060102-150405"))
	}
	if err := lab.Preflight(ctx, lab.NeedsOf([]lab.HostSpec{{Link: p.Base.NodeLink}, {Link: p.Base.ClientLink}})); err != nil {
		return err
	}
	_, statErr := os.Stat(out)
	if err := checkWritableDir(out); err != nil {
		return err
	}
	wrote := false
	defer func() {
		if !wrote && os.IsNotExist(statErr) {
			_ = os.Remove(out) // made here, still empty: leave nothing behind
		}
	}()
	if err := os.MkdirAll(o.dataDir, 0o755); err != nil {
		return usage.Wrap(err)
	}
	scratch, err := os.MkdirTemp(o.dataDir, "lab-")
	if err != nil {
		return usage.Wrap(err)
	}
	defer os.RemoveAll(scratch)
	logf := func(format string, a ...any) { fmt.Fprintf(env.Stderr, format+"\n", a...) }
	r, runErr := Run(ctx, p, scratch, logf)
	if r == nil {
		return runErr
	}
	r.Command = "stampede " + strings.Join(env.CommandLine, " ")
	WriteText(env.Stdout, r)
	wrote = true
	if err := WriteDir(out, r); err != nil {
		return fmt.Errorf("lab results: %w", err)
	}
	fmt.Fprintf(env.Stdout, "results: %s (lab.json, steps.csv, report.txt, report.html)\n", out)
	if r.Interrupted {
		return &workload.Interrupted{}
	}
	return runErr
}

func clean(env *workload.CommandEnv) error {
	if os.Geteuid() != 0 {
		return usage.Errorf("stampede lab clean needs root")
	}
	ids, err := lab.Clean("")
	for _, id := range ids {
		fmt.Fprintf(env.Stdout, "removed lab %s\n", id)
	}
	if len(ids) == 0 && err == nil {
		fmt.Fprintln(env.Stdout, "no orphaned lab")
	}
	return err
}

// linkRate parses a link rate in bits per second ("10mbit", "1G").
func linkRate(flag, s string) (int64, error) {
	if s == "0" || s == "" {
		return 0, nil
	}
	bytesPerS, err := monitor.ParseNICSpeed(s)
	if err != nil {
		return 0, usage.Errorf("%s %q: want a rate in bits per second of at least 1 Mbit/s, like 10mbit, 20Mbit/s or 1G (0: unshaped)", flag, s)
	}
	return int64(bytesPerS*8 + 0.5), nil
}

// checkWritableDir makes dir (when missing) and checks that a file can be
// written in it, before any expensive work.
func checkWritableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usage.Errorf("--out %s: %v", dir, err)
	}
	f, err := os.CreateTemp(dir, ".probe-")
	if err != nil {
		return usage.Errorf("--out %s is not writable: %v", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
