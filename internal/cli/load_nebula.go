package cli

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/ldbc/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/ldbc/ngqlload"
)

// nebulaLoadOptions are the flags of `stampede load` for nebula://
// targets.
type nebulaLoadOptions struct {
	dryRun     bool
	partitions int
	replicas   int
	batch      int
	schemaWait time.Duration
	set        func(string) bool
}

func addNebulaLoadFlags(f *pflag.FlagSet, o *nebulaLoadOptions) {
	f.BoolVar(&o.dryRun, "dry-run", false, "nebula:// only: print the nGQL statements instead of sending them (no server needed)")
	f.IntVar(&o.partitions, "partitions", ngqlload.DefaultPartitions, "nebula:// only: partition_num of the new space (nebula-bench's default)")
	f.IntVar(&o.replicas, "replica-factor", ngqlload.DefaultReplicaFactor, "nebula:// only: replica_factor of the new space (nebula-bench's default)")
	f.IntVar(&o.batch, "batch-size", ngqlload.DefaultBatch, "nebula:// only: rows per INSERT VERTEX/EDGE statement")
	f.DurationVar(&o.schemaWait, "schema-wait", ngqlload.DefaultSchemaWait, "nebula:// only: longest wait for the new schema to reach every graphd")
	o.set = func(name string) bool { return f.Changed(name) }
}

// checkUnused refuses nebula-only flags on other targets.
func (o *nebulaLoadOptions) checkUnused() error {
	for _, n := range []string{"dry-run", "partitions", "replica-factor", "batch-size", "schema-wait"} {
		if o.set != nil && o.set(n) {
			return usagef("load: --%s is only for nebula:// targets", n)
		}
	}
	return nil
}

func isNebulaTarget(target string) bool {
	u, err := url.Parse(target)
	return err == nil && strings.EqualFold(u.Scheme, "nebula")
}

func runLoadNebula(ctx context.Context, env *Env, o loadOptions) error {
	n := o.nebula
	switch {
	case n.partitions < 1:
		return usagef("load: --partitions %d must be at least 1", n.partitions)
	case n.replicas < 1:
		return usagef("load: --replica-factor %d must be at least 1", n.replicas)
	case n.batch < 1:
		return usagef("load: --batch-size %d must be at least 1", n.batch)
	}
	cfg := ngqlload.Config{
		Target: o.target, Data: o.data, Drop: o.drop, Workers: o.workers, Batch: n.batch,
		Partitions: n.partitions, Replicas: n.replicas, SchemaWait: n.schemaWait,
		FailedFile: o.failedRows, Getenv: env.Getenv,
	}
	cfg.Dates, _ = ldbcfile.ParseDateFormat(o.dateFormat) // runLoad checked it
	if n.dryRun {
		cfg.DryRun = env.Stdout
	} else if !o.quiet && isTerminal(env.Stderr) {
		cfg.Progress = env.Stderr
	}
	st, err := ngqlload.Load(ctx, cfg)
	if err != nil {
		if usage.Is(err) {
			return err
		}
		return fmt.Errorf("load: %w", err)
	}
	var rows int64
	for _, c := range st.Counts {
		rows += c
	}
	if n.dryRun {
		fmt.Fprintf(env.Stderr, "dry run: %d persons, %d knows and %d rows in all would be inserted; nothing was sent\n", st.Persons, st.Knows, rows)
		return nil
	}
	w := env.Stdout
	fmt.Fprintf(w, "space: partition_num %d, replica_factor %d, vid_type %s (read back from the target)\n", st.Partitions, st.Replicas, st.VidType)
	fmt.Fprintf(w, "loaded %d Person vertices and %d KNOWS edges (%d rows in all, %s layout) in %s (%.0f rows/s); counts verified with SHOW STATS\n",
		st.Persons, st.Knows, rows, st.Layout, st.Elapsed.Round(time.Millisecond), float64(rows)/max(st.Elapsed.Seconds(), 1e-9))
	fmt.Fprintln(w, ngqlload.FormatCounts(st.Counts))
	if !st.Activity {
		fmt.Fprintln(w, "the data set has no forums or messages (a person-graph data set): Forum, Post, Comment and their edges are empty")
	}
	if st.FailedFile != "" {
		fmt.Fprintf(w, "%d rows failed: see %s\n", st.Failed, st.FailedFile)
	}
	return nil
}
