package nats

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/stampede-bench/stampede/flags"
	"github.com/stampede-bench/stampede/internal/natscluster"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
)

var (
	_ workload.Commander      = (*Family)(nil)
	_ workload.ClusterResizer = (*Family)(nil)
)

// NodesFlag implements workload.ClusterResizer: --nats-nodes sizes the
// embedded cluster, so `stampede sweep --nodes` sets it per step.
func (*Family) NodesFlag() string { return "nats-nodes" }

// ResizeNote implements workload.ClusterResizer.
func (*Family) ResizeNote() string {
	return "nats.* scenarios resize their embedded cluster themselves"
}

// serveOptions are the flags of `stampede nats serve`.
type serveOptions struct {
	nodes   int
	dataDir string
	forDur  time.Duration
	fsync   string
}

func (o *serveOptions) bind(fs flags.Set) {
	fs.IntVar(&o.nodes, "nodes", 3, "number of nats-server nodes")
	fs.StringVar(&o.dataDir, "data-dir", "stampede-data", "parent of the cluster's store directory")
	fs.DurationVar(&o.forDur, "for", 0, "stop after this long (default: until Ctrl+C)")
	fs.StringVar(&o.fsync, "fsync", "default", "always (sync_interval: always, fsync every message) or default")
}

// Commands implements workload.Commander: `stampede nats serve`, the
// embedded real NATS JetStream cluster on its own, for other clients
// (nats bench) and runs in other processes; and the hidden `stampede nats
// node`, one node of it (natscluster starts its nodes so).
func (*Family) Commands() []workload.Command {
	o := &serveOptions{}
	var config string
	return []workload.Command{{
		Use:   "nats",
		Short: "NATS helpers: serve the embedded JetStream cluster",
		Sub: []workload.Command{{
			Use:   "serve",
			Short: "Serve a real N-node nats-server JetStream cluster on loopback until Ctrl+C or --for",
			Long: `Serve the embedded cluster that nats.* scenarios use without --target: N
nats-server nodes as child processes, routed to each other, JetStream file
storage in a fresh directory under --data-dir (removed when it stops). The
first line on stdout is its nats:// URL, once the meta leader is elected.
All nodes share this machine's cores.`,
			Example: `  stampede nats serve --nodes 3 --for 10m
  nats bench js pub async bench.sub --server "$(stampede nats serve --nodes 3 | head -1)" ...`,
			Flags: o.bind,
			Run:   func(ctx context.Context, env *workload.CommandEnv) error { return serve(ctx, env, *o) },
		}, {
			Use:    "node",
			Short:  "Run one node of the embedded cluster (started by stampede itself)",
			Hidden: true,
			Flags: func(fs flags.Set) {
				fs.StringVar(&config, "config", "", "nats-server config file")
			},
			Run: func(_ context.Context, env *workload.CommandEnv) error {
				return natscluster.RunNode(config, env.Stdin, env.Stdout)
			},
		}},
	}}
}

func serve(ctx context.Context, env *workload.CommandEnv, o serveOptions) error {
	if o.nodes < 1 || o.nodes > 15 || o.forDur < 0 {
		return usage.Errorf("--nodes must be between 1 and 15, --for not negative")
	}
	if o.fsync != "always" && o.fsync != "default" {
		return usage.Errorf("--fsync %q: want always or default", o.fsync)
	}
	_, absent := os.Stat(o.dataDir)
	if err := os.MkdirAll(o.dataDir, 0o755); err != nil {
		return usage.Wrap(err)
	}
	if absent != nil {
		defer os.Remove(o.dataDir) // made for the store: removed again when empty
	}
	dir, err := os.MkdirTemp(o.dataDir, "nats-serve-")
	if err != nil {
		return usage.Wrap(err)
	}
	defer os.RemoveAll(dir)
	c, err := natscluster.Start(ctx, natscluster.Options{Nodes: o.nodes, Dir: dir, SyncAlways: o.fsync == "always"})
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintln(env.Stdout, c.URL())
	fmt.Fprintf(env.Stderr, "embedded nats cluster: %d node(s), meta leader %s, monitoring %s, store %s; all nodes share this machine's %d cores\n",
		o.nodes, c.MetaLeader(ctx), c.MonitorURL(0), dir, runtime.NumCPU())
	workload.ServeUntil(ctx, o.forDur)
	return nil
}
