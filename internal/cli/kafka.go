package cli

import (
	"context"
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
	)
	serve := &cobra.Command{
		Use:   "serve",
		Short: "Serve the embedded in-memory Kafka cluster (kfake) until Ctrl+C or --for",
		Long: `Serve the embedded in-memory Kafka-protocol cluster that kafka.* scenarios use
without --target. The first line on stdout is its kafka:// URL. It keeps
records in memory (bounded by --retention per partition) and is a test
cluster: its throughput is not a real broker's.`,
		Example: `  stampede kafka serve --brokers 3 --for 60s
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
			if brokers < 1 || forDur < 0 || retention < 0 {
				return usagef("--brokers must be ≥ 1, --for and --retention not negative")
			}
			e, err := mq.StartEmbedded(mq.EmbeddedOptions{Brokers: brokers, Ports: ps, Retention: retention, Blackhole: blackhole})
			if err != nil {
				return asUsage(err)
			}
			defer e.Close()
			fmt.Fprintln(env.Stdout, e.URL())
			fmt.Fprintf(env.Stderr, "%s\n", e.Note())
			ctx := cmd.Context()
			if forDur > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, forDur)
				defer cancel()
			}
			<-ctx.Done()
			return nil
		},
	}
	fs := serve.Flags()
	fs.IntVar(&brokers, "brokers", 3, "number of brokers")
	fs.StringVar(&ports, "ports", "", "listen on these loopback ports, one per broker (default: free ports)")
	fs.DurationVar(&forDur, "for", 0, "stop after this long (default: until Ctrl+C)")
	fs.Int64Var(&retention, "retention", 64<<20, "bytes kept per partition (0: unbounded memory)")
	fs.BoolVar(&blackhole, "blackhole", false, "acknowledge produced records without storing them (produce-only benchmarks)")
	cmd.AddCommand(serve)
	return cmd
}
