package cli

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/natscluster"
)

// newNatsCmd is `stampede nats serve`: the embedded real NATS JetStream
// cluster on its own, for other clients (nats bench) and runs in other
// processes; and the hidden `stampede nats node`, one node of it.
func newNatsCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "nats",
		Short: "NATS helpers: serve the embedded JetStream cluster",
	}
	var (
		nodes   int
		dataDir string
		forDur  time.Duration
		fsync   string
	)
	serve := &cobra.Command{
		Use:   "serve",
		Short: "Serve a real N-node nats-server JetStream cluster on loopback until Ctrl+C or --for",
		Long: `Serve the embedded cluster that nats.* scenarios use without --target: N
nats-server nodes as child processes, routed to each other, JetStream file
storage in a fresh directory under --data-dir (removed when it stops). The
first line on stdout is its nats:// URL, once the meta leader is elected.
All nodes share this machine's cores.`,
		Example: `  stampede nats serve --nodes 3 --for 10m
  nats bench js pub async bench.sub --server "$(stampede nats serve --nodes 3 | head -1)" ...`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if nodes < 1 || nodes > 15 || forDur < 0 {
				return usagef("--nodes must be between 1 and 15, --for not negative")
			}
			if fsync != "always" && fsync != "default" {
				return usagef("--fsync %q: want always or default", fsync)
			}
			_, absent := os.Stat(dataDir)
			if err := os.MkdirAll(dataDir, 0o755); err != nil {
				return asUsage(err)
			}
			if absent != nil {
				defer os.Remove(dataDir) // made for the store: removed again when empty
			}
			dir, err := os.MkdirTemp(dataDir, "nats-serve-")
			if err != nil {
				return asUsage(err)
			}
			defer os.RemoveAll(dir)
			ctx := cmd.Context()
			c, err := natscluster.Start(ctx, natscluster.Options{Nodes: nodes, Dir: dir, SyncAlways: fsync == "always"})
			if err != nil {
				return err
			}
			defer c.Close()
			fmt.Fprintln(env.Stdout, c.URL())
			fmt.Fprintf(env.Stderr, "embedded nats cluster: %d node(s), meta leader %s, monitoring %s, store %s; all nodes share this machine's %d cores\n",
				nodes, c.MetaLeader(ctx), c.MonitorURL(0), dir, runtime.NumCPU())
			serveUntil(ctx, forDur)
			return nil
		},
	}
	fs := serve.Flags()
	fs.IntVar(&nodes, "nodes", 3, "number of nats-server nodes")
	fs.StringVar(&dataDir, "data-dir", "stampede-data", "parent of the cluster's store directory")
	fs.DurationVar(&forDur, "for", 0, "stop after this long (default: until Ctrl+C)")
	fs.StringVar(&fsync, "fsync", "default", "always (sync_interval: always, fsync every message) or default")
	var config string
	node := &cobra.Command{
		Use:    "node",
		Short:  "Run one node of the embedded cluster (started by stampede itself)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return natscluster.RunNode(config, os.Stdin, env.Stdout)
		},
	}
	node.Flags().StringVar(&config, "config", "", "nats-server config file")
	cmd.AddCommand(serve, node)
	return cmd
}

// embeddedNodesFlag is the run flag that sizes the embedded nats cluster;
// `stampede sweep --nodes` sets it per step when every scenario is a
// nats.* one and no --before-step or --targets is given.
const embeddedNodesFlag = "--nats-nodes"

// resizesItself tells whether the scenarios run on an embedded cluster
// whose size a run flag sets (the nats family).
func resizesItself(scenarios []string) bool {
	if len(scenarios) == 0 {
		return false
	}
	for _, s := range scenarios {
		if !strings.HasPrefix(s, "nats.") {
			return false
		}
	}
	return true
}
