package kafka

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/flags"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
)

var (
	_ workload.Commander      = (*Family)(nil)
	_ workload.StandInCluster = (*Family)(nil)
	_ workload.ClusterResizer = (*Family)(nil)
	_ workload.RateTrender    = (*Family)(nil)
)

// NodesFlag implements workload.ClusterResizer: --brokers sizes the
// embedded cluster, so `stampede sweep --nodes` sets it per step; the
// load's partitions follow it with their leaders one per broker, and the
// run's notes and the sweep's verdict say that the stand-in limits the
// curve.
func (*Family) NodesFlag() string { return "brokers" }

// ResizeNote implements workload.ClusterResizer.
func (*Family) ResizeNote() string {
	return "kafka.* scenarios resize their embedded kfake cluster themselves (a stand-in)"
}

// RefuseNodeSweep implements workload.StandInCluster: a node sweep that
// resizes a cluster with a --before-step hook leaves the embedded cluster
// at --brokers, so every step would measure the same cluster.
func (*Family) RefuseNodeSweep(scenario string) error {
	return usage.Errorf("--before-step cannot resize the embedded Kafka cluster of %s (kfake, inside each step's run): drop --before-step and the sweep sets --brokers per step, or sweep a cluster of your own (--targets 'kafka://… kafka://…', or --target with --before-step)", scenario)
}

// RateTrends implements workload.RateTrender: the msgs/s trends (see
// PerSecondTrends).
func (*Family) RateTrends() []workload.RateTrend {
	var out []workload.RateTrend
	for _, p := range PerSecondTrends() {
		out = append(out, workload.RateTrend{Trend: p.Trend, Counter: p.Counter, Sparse: p.Sparse})
	}
	return out
}

// serveOptions are the flags of `stampede kafka serve`.
type serveOptions struct {
	brokers   int
	ports     string
	forDur    time.Duration
	retention int64
	blackhole bool
	fsync     bool
	noAuto    bool
	autoParts int32
	topics    []string
}

func (o *serveOptions) bind(fs flags.Set) {
	fs.IntVar(&o.brokers, "brokers", 3, "number of brokers")
	fs.StringVar(&o.ports, "ports", "", "listen on these loopback ports, one per broker (default: free ports)")
	fs.DurationVar(&o.forDur, "for", 0, "stop after this long (default: until Ctrl+C)")
	fs.Int64Var(&o.retention, "retention", 64<<20, "bytes kept per partition (0: unbounded memory)")
	fs.BoolVar(&o.blackhole, "blackhole", false, "acknowledge produced records without storing them (produce-only benchmarks)")
	fs.BoolVar(&o.fsync, "fsync", false, "write every produced batch to a temporary directory with fsync (flush.messages=1 costs what a flush costs)")
	fs.Int32Var(&o.autoParts, "partitions", 1, "partitions of topics created on first use")
	fs.BoolVar(&o.noAuto, "no-auto-create", false, "do not create topics clients ask for (as auto.create.topics.enable=false)")
	fs.StringArrayVar(&o.topics, "topic", nil, "create topic NAME:PARTITIONS:RF before serving (repeatable)")
}

// Commands implements workload.Commander: `stampede kafka serve`, the
// embedded in-memory Kafka cluster on its own, for other clients (kcat,
// kafka-producer-perf-test) and for runs in other processes.
func (*Family) Commands() []workload.Command {
	o := &serveOptions{}
	return []workload.Command{{
		Use:   "kafka",
		Short: "Kafka helpers: serve the embedded test cluster",
		Sub: []workload.Command{{
			Use:   "serve",
			Short: "Serve the embedded in-memory Kafka cluster (kfake) until Ctrl+C or --for",
			Long: `Serve the embedded in-memory Kafka-protocol cluster that kafka.* scenarios use
without --target. The first line on stdout is its kafka:// URL. It keeps
records in memory (bounded by --retention per partition) and is a test
cluster: it does not model replication, in-sync replicas, leader election
or the network, and its throughput is not a real broker's. stampede runs
against it (--target) recognise it by its cluster id and say so.

Any client may use it: topics a client asks for are created on first use
with --partitions partitions (kcat -P -t NEW works), and --topic
NAME:PARTITIONS:RF creates topics before the URL is printed. --fsync writes
every produced batch to a temporary directory with fsync, so that a flush
costs what it costs.`,
			Example: `  stampede kafka serve --brokers 3 --for 60s
  stampede kafka serve --topic orders:6:3 --topic audit:1:1
  stampede kafka serve --ports 9092,9093,9094 --blackhole`,
			Flags: o.bind,
			Run:   func(ctx context.Context, env *workload.CommandEnv) error { return serve(ctx, env, *o) },
		}},
	}}
}

func serve(ctx context.Context, env *workload.CommandEnv, o serveOptions) error {
	var ps []int
	if o.ports != "" {
		for _, p := range strings.Split(o.ports, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || n < 0 || n > 65535 {
				return usage.Errorf("--ports %q: want comma-separated port numbers", o.ports)
			}
			ps = append(ps, n)
		}
		if !env.Changed("brokers") {
			o.brokers = len(ps)
		}
	}
	if o.brokers < 1 || o.forDur < 0 || o.retention < 0 || o.autoParts < 1 {
		return usage.Errorf("--brokers and --partitions must be ≥ 1, --for and --retention not negative")
	}
	var specs []TopicSpec
	for _, t := range o.topics {
		ts, err := ParseTopicSpec(t)
		if err != nil {
			return usage.Errorf("--topic: %v", err)
		}
		if int(ts.RF) > o.brokers {
			return usage.Errorf("--topic %s: replication factor %d needs at least %d brokers (--brokers %d)", t, ts.RF, ts.RF, o.brokers)
		}
		specs = append(specs, ts)
	}
	e, err := StartEmbedded(EmbeddedOptions{Brokers: o.brokers, Ports: ps, Retention: o.retention, Blackhole: o.blackhole,
		Fsync: o.fsync, AutoCreate: !o.noAuto, AutoPartitions: o.autoParts})
	if err != nil {
		return usage.Wrap(err)
	}
	defer e.Close()
	if err := e.CreateTopics(ctx, specs); err != nil {
		return fmt.Errorf("kafka serve: %w", err)
	}
	fmt.Fprintln(env.Stdout, e.URL())
	fmt.Fprintf(env.Stderr, "%s\n", e.Note())
	if !o.noAuto {
		fmt.Fprintf(env.Stderr, "topics are created on first use with %d partition(s) and replication factor %d (kfake's default: the broker count, at most 3)\n", o.autoParts, min(o.brokers, 3))
	}
	workload.ServeUntil(ctx, o.forDur)
	return nil
}
