package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/workload/mq"
)

// newKafkaCmd is `stampede kafka serve`: the embedded in-memory Kafka
// cluster on its own, for other clients (kcat, kafka-producer-perf-test)
// and for runs in other processes.
func newKafkaCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kafka",
		Short: "Kafka helpers: serve the embedded test cluster",
	}
	var (
		brokers   int
		ports     string
		forDur    time.Duration
		retention int64
		blackhole bool
		fsync     bool
		noAuto    bool
		autoParts int32
		topics    []string
	)
	serve := &cobra.Command{
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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var ps []int
			if ports != "" {
				for _, p := range strings.Split(ports, ",") {
					n, err := strconv.Atoi(strings.TrimSpace(p))
					if err != nil || n < 0 || n > 65535 {
						return usagef("--ports %q: want comma-separated port numbers", ports)
					}
					ps = append(ps, n)
				}
				if !cmd.Flags().Changed("brokers") {
					brokers = len(ps)
				}
			}
			if brokers < 1 || forDur < 0 || retention < 0 || autoParts < 1 {
				return usagef("--brokers and --partitions must be ≥ 1, --for and --retention not negative")
			}
			var specs []mq.TopicSpec
			for _, t := range topics {
				ts, err := mq.ParseTopicSpec(t)
				if err != nil {
					return usagef("--topic: %v", err)
				}
				if int(ts.RF) > brokers {
					return usagef("--topic %s: replication factor %d needs at least %d brokers (--brokers %d)", t, ts.RF, ts.RF, brokers)
				}
				specs = append(specs, ts)
			}
			e, err := mq.StartEmbedded(mq.EmbeddedOptions{Brokers: brokers, Ports: ps, Retention: retention, Blackhole: blackhole,
				Fsync: fsync, AutoCreate: !noAuto, AutoPartitions: autoParts})
			if err != nil {
				return asUsage(err)
			}
			defer e.Close()
			if err := e.CreateTopics(cmd.Context(), specs); err != nil {
				return fmt.Errorf("kafka serve: %w", err)
			}
			fmt.Fprintln(env.Stdout, e.URL())
			fmt.Fprintf(env.Stderr, "%s\n", e.Note())
			if !noAuto {
				fmt.Fprintf(env.Stderr, "topics are created on first use with %d partition(s) and replication factor %d (kfake's default: the broker count, at most 3)\n", autoParts, min(brokers, 3))
			}
			serveUntil(cmd.Context(), forDur)
			return nil
		},
	}
	fs := serve.Flags()
	fs.IntVar(&brokers, "brokers", 3, "number of brokers")
	fs.StringVar(&ports, "ports", "", "listen on these loopback ports, one per broker (default: free ports)")
	fs.DurationVar(&forDur, "for", 0, "stop after this long (default: until Ctrl+C)")
	fs.Int64Var(&retention, "retention", 64<<20, "bytes kept per partition (0: unbounded memory)")
	fs.BoolVar(&blackhole, "blackhole", false, "acknowledge produced records without storing them (produce-only benchmarks)")
	fs.BoolVar(&fsync, "fsync", false, "write every produced batch to a temporary directory with fsync (flush.messages=1 costs what a flush costs)")
	fs.Int32Var(&autoParts, "partitions", 1, "partitions of topics created on first use")
	fs.BoolVar(&noAuto, "no-auto-create", false, "do not create topics clients ask for (as auto.create.topics.enable=false)")
	fs.StringArrayVar(&topics, "topic", nil, "create topic NAME:PARTITIONS:RF before serving (repeatable)")
	cmd.AddCommand(serve)
	return cmd
}
