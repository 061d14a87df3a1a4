package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/lab"
	"github.com/stampede-bench/stampede/internal/labrun"
	"github.com/stampede-bench/stampede/internal/monitor"
	runsweep "github.com/stampede-bench/stampede/internal/run/sweep"
)

// newLabCmd is `stampede lab [PRESET]`: the third seed's experiments on
// real broker nodes, each in its own network namespace with a shaped link
// and a CPU quota (internal/lab, internal/labrun); and `stampede lab
// clean`, which removes what a killed lab left behind.
func newLabCmd(env *Env) *cobra.Command {
	var (
		nodes, clients, topics, profile          string
		link, clientLink, fsync, out, dataDir    string
		clientsPerNode, nodeCPU, clientCPU, cpuB float64
		size, vus, window                        int
		windowD, warmup, delay, jitter           time.Duration
		loss                                     float64
	)
	cmd := &cobra.Command{
		Use:     "lab [nodes|clients|topics|budgets]",
		Short:   labrun.CommandShort,
		Long:    labrun.CommandLong,
		Example: labrun.CommandExample,
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			preset := labrun.PresetNodes
			if len(args) == 1 {
				preset = args[0]
			}
			p := &labrun.Plan{Preset: preset, ClientsPerNode: clientsPerNode, CPUBoundCPU: cpuB}
			fs := cmd.Flags()
			if !fs.Changed("nodes") && (preset == labrun.PresetClients || preset == labrun.PresetTopics) {
				nodes = "3"
			}
			for flag, only := range map[string]string{"clients": labrun.PresetClients, "topics": labrun.PresetTopics, "cpu-bound-cpu": labrun.PresetBudgets} {
				if fs.Changed(flag) && preset != only {
					return usagef("--%s applies to the %s preset, not %s", flag, only, preset)
				}
			}
			var err error
			if p.Nodes, err = runsweep.ParseIntList("--nodes", nodes); err != nil {
				return err
			}
			if p.Clients, err = runsweep.ParseIntList("--clients", clients); err != nil {
				return err
			}
			if p.Topics, err = runsweep.ParseIntList("--topics", topics); err != nil {
				return err
			}
			switch profile {
			case labrun.HighThroughput, labrun.HighReliability:
				p.Profiles = []string{profile}
			case "both":
				p.Profiles = []string{labrun.HighThroughput, labrun.HighReliability}
			default:
				return usagef("--profile %q: want high-throughput, high-reliability or both", profile)
			}
			if fsync != "always" && fsync != "default" {
				return usagef("--fsync %q: want always or default", fsync)
			}
			nl, err := labRate("--link", link)
			if err != nil {
				return err
			}
			cl := nl
			if clientLink != "" {
				if cl, err = labRate("--client-link", clientLink); err != nil {
					return err
				}
			}
			if loss < 0 || loss > 100 || nodeCPU < 0 || clientCPU < 0 || windowD <= 0 || warmup < 0 {
				return usagef("--loss is a per cent (0–100); --node-cpu, --client-cpu not negative; --window > 0")
			}
			shape := lab.Link{Delay: delay, Jitter: jitter, Loss: loss / 100}
			nodeLink, cliLink := shape, shape
			nodeLink.Rate, cliLink.Rate = nl, cl
			p.Base = labrun.Config{Exe: "", VUs: vus, NodeLink: nodeLink, ClientLink: cliLink, NodeCPU: nodeCPU, ClientCPU: clientCPU,
				FsyncAlways: fsync == "always", MessageSize: size, AsyncWindow: window, Warmup: warmup, Window: windowD}
			if _, err := p.Series(); err != nil {
				return err
			}
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("lab: own executable: %w", err)
			}
			p.Base.Exe = exe
			if out == "" {
				out = filepath.Join("stampede-results", "lab-"+time.Now().Format("20060102-150405"))
			}
			ctx := cmd.Context()
			if err := lab.Preflight(ctx, lab.NeedsOf([]lab.HostSpec{{Link: nodeLink}, {Link: cliLink}})); err != nil {
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
			if err := os.MkdirAll(dataDir, 0o755); err != nil {
				return asUsage(err)
			}
			scratch, err := os.MkdirTemp(dataDir, "lab-")
			if err != nil {
				return asUsage(err)
			}
			defer os.RemoveAll(scratch)
			logf := func(format string, a ...any) { fmt.Fprintf(env.Stderr, format+"\n", a...) }
			r, runErr := labrun.Run(ctx, p, scratch, logf)
			if r == nil {
				return runErr
			}
			r.Command = "stampede " + strings.Join(env.args, " ")
			labrun.WriteText(env.Stdout, r)
			wrote = true
			if err := labrun.WriteDir(out, r); err != nil {
				return fmt.Errorf("lab results: %w", err)
			}
			fmt.Fprintf(env.Stdout, "results: %s (lab.json, steps.csv, report.txt, report.html)\n", out)
			if r.Interrupted {
				return &ExitError{Code: ExitInterrupted}
			}
			return runErr
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&nodes, "nodes", "1,2,3,4,5,6", "node counts (nodes, budgets presets) or the one node count (clients, topics; default 3)")
	fs.StringVar(&clients, "clients", "", "client counts of the clients preset (default 1…2×nodes)")
	fs.Float64Var(&clientsPerNode, "clients-per-node", 2, "clients per node in the nodes, topics and budgets presets")
	fs.StringVar(&topics, "topics", "", "streams per generator of the topics preset (default 1,4,16,64)")
	fs.StringVar(&profile, "profile", labrun.HighThroughput, "high-throughput (R1), high-reliability (R3) or both; both publish asynchronously")
	fs.StringVar(&link, "link", "10mbit", "each node's link rate, both directions (tc tbf), e.g. 10mbit, 20Mbit/s, 1G")
	fs.StringVar(&clientLink, "client-link", "", "each client's link rate (default: --link)")
	fs.DurationVar(&delay, "delay", 0, "one-way delay added to every link (netem)")
	fs.DurationVar(&jitter, "jitter", 0, "variation of --delay (netem)")
	fs.Float64Var(&loss, "loss", 0, "per cent of packets dropped on every link (netem)")
	fs.Float64Var(&nodeCPU, "node-cpu", 0.25, "each node's CPU quota in cores (cgroup cpu.cfs_quota_us; 0: unlimited)")
	fs.Float64Var(&clientCPU, "client-cpu", 0.25, "each client's CPU quota in cores (0: unlimited)")
	fs.Float64Var(&cpuB, "cpu-bound-cpu", 0.015, "node CPU quota of the budgets preset's CPU-bound series, cores")
	fs.IntVar(&size, "message-size", 2048, "payload bytes (the seed's 2 KB)")
	fs.IntVar(&vus, "vus", 2, "publishing VUs per generator process")
	fs.IntVar(&window, "async-window", 64, "messages in flight per VU")
	fs.DurationVar(&windowD, "window", 6*time.Second, "measured window of each step")
	fs.DurationVar(&warmup, "warmup", 2*time.Second, "time after every stream receives before the window opens")
	fs.StringVar(&fsync, "fsync", "default", "nodes fsync: default (background, the seed's 异步落盘) or always")
	fs.StringVar(&out, "out", "", "result directory (default stampede-results/lab-TIMESTAMP)")
	fs.StringVar(&dataDir, "data-dir", "stampede-data", "parent of the lab's scratch directory (node stores; removed at the end)")
	clean := &cobra.Command{
		Use:   "clean",
		Short: "Remove the namespaces, cgroups and processes of labs whose stampede was killed",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if os.Geteuid() != 0 {
				return usagef("stampede lab clean needs root")
			}
			ids, err := lab.Clean("")
			for _, id := range ids {
				fmt.Fprintf(env.Stdout, "removed lab %s\n", id)
			}
			if len(ids) == 0 && err == nil {
				fmt.Fprintln(env.Stdout, "no orphaned lab")
			}
			return err
		},
	}
	cmd.AddCommand(clean)
	return cmd
}

// labRate parses a link rate in bits per second ("10mbit", "1G").
func labRate(flag, s string) (int64, error) {
	if s == "0" || s == "" {
		return 0, nil
	}
	bytesPerS, err := monitor.ParseNICSpeed(s)
	if err != nil {
		return 0, usagef("%s %q: want a rate in bits per second of at least 1 Mbit/s, like 10mbit, 20Mbit/s or 1G (0: unshaped)", flag, s)
	}
	return int64(bytesPerS*8 + 0.5), nil
}

// checkWritableDir makes dir (when missing) and checks that a file can be
// written in it, before any expensive work.
func checkWritableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usagef("--out %s: %v", dir, err)
	}
	f, err := os.CreateTemp(dir, ".probe-")
	if err != nil {
		return usagef("--out %s is not writable: %v", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
