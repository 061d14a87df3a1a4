package graph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stampede-bench/stampede/flags"
	"github.com/stampede-bench/stampede/internal/progress/termbar"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
	"github.com/stampede-bench/stampede/internal/workload/graph/ngqlload"
)

// loadOptions are the flags of `stampede load`.
type loadOptions struct {
	target     string
	data       string
	drop       bool
	workers    int
	failedRows string
	quiet      bool
	nebula     nebulaLoadOptions
	// maxRejected and dateFormat are parsed by runLoad.
	maxRejected string
	dateFormat  string
}

// nebulaLoadOptions are the flags of `stampede load` for nebula://
// targets.
type nebulaLoadOptions struct {
	dryRun     bool
	partitions int
	replicas   int
	batch      int
	schemaWait time.Duration
}

// nebulaOnly are the flags of nebulaLoadOptions, refused on other targets.
var nebulaOnly = []string{"dry-run", "partitions", "replica-factor", "batch-size", "schema-wait"}

func (o *loadOptions) bind(f flags.Set) {
	f.StringVar(&o.target, "target", "", "database URL: sqlite://PATH, postgres://... or nebula://user:pass@host:9669/SPACE (required)")
	f.StringVar(&o.data, "data", "", "LDBC data set directory, as written by stampede gen ldbc (required)")
	f.BoolVar(&o.drop, "drop", false, "drop the graph tables first (reload)")
	f.IntVar(&o.workers, "workers", loader.DefaultWorkers, "concurrent COPY streams (PostgreSQL; SQLite has one writer)")
	f.StringVar(&o.failedRows, "failed-rows", "", "file for rejected rows, outside --data (default: SQLITE_PATH.failed_rows.csv, or DATA.failed_rows.csv next to the data set)")
	f.StringVar(&o.maxRejected, "max-rejected", "0", "rows that may fail validation with the load still succeeding: a number, or a percentage of the rows read such as 0.1%")
	f.StringVar(&o.dateFormat, "date-format", "auto", "dates of the data set: iso (yyyy-MM-dd...), millis (epoch milliseconds, LDBC's LongDateFormatter) or auto (either, per value)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress bar (there is none either when stderr is not a terminal)")
	n := &o.nebula
	f.BoolVar(&n.dryRun, "dry-run", false, "nebula:// only: print the nGQL statements instead of sending them (no server needed)")
	f.IntVar(&n.partitions, "partitions", ngqlload.DefaultPartitions, "nebula:// only: partition_num of the new space (nebula-bench's default)")
	f.IntVar(&n.replicas, "replica-factor", ngqlload.DefaultReplicaFactor, "nebula:// only: replica_factor of the new space (nebula-bench's default)")
	f.IntVar(&n.batch, "batch-size", ngqlload.DefaultBatch, "nebula:// only: rows per INSERT VERTEX/EDGE statement")
	f.DurationVar(&n.schemaWait, "schema-wait", ngqlload.DefaultSchemaWait, "nebula:// only: longest wait for the new schema to reach every graphd")
}

func loadCommand() workload.Command {
	o := &loadOptions{}
	return workload.Command{
		Use:   "load --target URL --data DIR",
		Short: "Load an LDBC data set into a database (schema, rows, indexes, verified counts)",
		Long: `load creates the graph schema in the target and imports an LDBC data set
(stampede gen ldbc, or LDBC's Hadoop datagen in its CsvBasic, CsvComposite,
CsvMergeForeign or CsvCompositeMergeForeign layout, ISO or epoch-millisecond
dates): persons, knows, the other person relations and the static files.
Every row is validated before the target is touched: malformed, duplicate or
dangling rows go to the failed-rows file (file, line, reason, row) and the
load fails unless --max-rejected allows them. Rows go into a staging area
(a new schema, a new SQLite file) that replaces the previous load only after
every count verified. PostgreSQL is loaded with concurrent COPY streams,
SQLite with batched INSERTs. A target that is already loaded is refused
unless --drop.
Credentials may come from the URL or from PGUSER/PGPASSWORD/... (also in
.env); they are never printed. See docs/graph.md.`,
		Example: `  stampede load --target sqlite://ldbc.db --data data/sf1
  stampede load --target postgres://bench@127.0.0.1/ldbc --data data/sf1 --drop --workers 8
  stampede load --target nebula://root:nebula@127.0.0.1:9669/sf1 --data data/sf1 --dry-run`,
		Flags: o.bind,
		Run:   func(ctx context.Context, env *workload.CommandEnv) error { return runLoad(ctx, env, *o) },
	}
}

func runLoad(ctx context.Context, env *workload.CommandEnv, o loadOptions) error {
	if o.target == "" || o.data == "" {
		return usage.Errorf("load: --target and --data are required")
	}
	if o.workers < 1 {
		return usage.Errorf("load: --workers %d must be at least 1", o.workers)
	}
	lim, err := loader.ParseLimit(o.maxRejected)
	if err != nil {
		return usage.Errorf("load: %v", err)
	}
	dates, err := ldbcfile.ParseDateFormat(o.dateFormat)
	if err != nil {
		return usage.Errorf("load: --date-format: %v", err)
	}
	if isNebulaTarget(o.target) {
		return runLoadNebula(ctx, env, o, dates)
	}
	for _, n := range nebulaOnly {
		if env.Changed(n) {
			return usage.Errorf("load: --%s is only for nebula:// targets", n)
		}
	}
	cfg := loader.Config{
		Target: o.target, Data: o.data, Drop: o.drop, Workers: o.workers,
		FailedRows: o.failedRows, Getenv: env.Getenv, MaxRejected: lim, Dates: dates,
		Note: func(line string) { fmt.Fprintf(env.Stderr, "load: %s\n", line) },
	}
	if !o.quiet && env.StderrTerminal {
		cfg.Progress = termbar.New(env.Stderr, "validating, loading", "rows")
	}
	st, err := loader.Load(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			// The command line exits 130 for an error after Ctrl+C.
			return errors.New("load: interrupted: the target is unchanged (the staging area was removed)")
		}
		if usage.Is(err) {
			return err
		}
		return fmt.Errorf("load: %w", err)
	}
	printLoadStats(env.Stdout, st)
	return nil
}

func printLoadStats(w io.Writer, st loader.Stats) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "table\tloaded\tfailed\t")
	for _, t := range st.Tables {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", t.Table, t.Loaded, t.Failed)
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t\n", st.Loaded, st.Failed)
	tw.Flush()
	secs := st.Elapsed.Seconds()
	fmt.Fprintf(w, "loaded %d rows (%d persons, %d knows; %s layout) in %s (%.0f rows/s); counts verified\n",
		st.Loaded, st.Meta.Persons, st.Meta.Knows, st.Meta.Layout, st.Elapsed.Round(time.Millisecond), float64(st.Loaded)/max(secs, 1e-9))
	fmt.Fprintf(w, "phases: validate %s, rows %s (%.0f rows/s), keys+indexes+analyze %s, verify+swap %s\n",
		st.Validate.Round(time.Millisecond), st.Rows.Round(time.Millisecond), float64(st.Loaded)/max(st.Rows.Seconds(), 1e-9), st.Index.Round(time.Millisecond), st.Verify.Round(time.Millisecond))
	if st.FailedRows != "" {
		fmt.Fprintf(w, "%d rows were not loaded (allowed by --max-rejected): see %s\n", st.Failed, st.FailedRows)
	}
}

func isNebulaTarget(target string) bool {
	u, err := url.Parse(target)
	return err == nil && strings.EqualFold(u.Scheme, "nebula")
}

func runLoadNebula(ctx context.Context, env *workload.CommandEnv, o loadOptions, dates ldbcfile.DateFormat) error {
	n := o.nebula
	switch {
	case n.partitions < 1:
		return usage.Errorf("load: --partitions %d must be at least 1", n.partitions)
	case n.replicas < 1:
		return usage.Errorf("load: --replica-factor %d must be at least 1", n.replicas)
	case n.batch < 1:
		return usage.Errorf("load: --batch-size %d must be at least 1", n.batch)
	}
	cfg := ngqlload.Config{
		Target: o.target, Data: o.data, Drop: o.drop, Workers: o.workers, Batch: n.batch,
		Partitions: n.partitions, Replicas: n.replicas, SchemaWait: n.schemaWait,
		FailedFile: o.failedRows, Getenv: env.Getenv, Dates: dates,
	}
	if n.dryRun {
		cfg.DryRun = env.Stdout
	} else if !o.quiet && env.StderrTerminal {
		cfg.Progress = termbar.New(env.Stderr, "loading", "rows")
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
