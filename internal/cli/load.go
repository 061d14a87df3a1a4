package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/ldbc/loader"
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
}

func newLoadCmd(env *Env) *cobra.Command {
	var o loadOptions
	cmd := &cobra.Command{
		Use:   "load --target URL --data DIR",
		Short: "Load an LDBC data set into a database (schema, rows, indexes, verified counts)",
		Long: `load creates the graph schema in the target and imports an LDBC data set
(stampede gen ldbc): persons, knows, the other person relations and the
static files. PostgreSQL is loaded with concurrent COPY streams, SQLite with
batched INSERTs. Malformed, duplicate or dangling rows go to the failed-rows
file (file, line, reason, row) and loading goes on; counts are verified at
the end. A target that is already loaded is refused unless --drop.
Credentials may come from the URL or from PGUSER/PGPASSWORD/... (also in
.env); they are never printed. See docs/graph.md.`,
		Example: `  stampede load --target sqlite://ldbc.db --data data/sf1
  stampede load --target postgres://bench@127.0.0.1/ldbc --data data/sf1 --drop --workers 8
  stampede load --target nebula://root:nebula@127.0.0.1:9669/sf1 --data data/sf1 --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLoad(cmd.Context(), env, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.target, "target", "", "database URL: sqlite://PATH, postgres://... or nebula://user:pass@host:9669/SPACE (required)")
	f.StringVar(&o.data, "data", "", "LDBC data set directory, as written by stampede gen ldbc (required)")
	f.BoolVar(&o.drop, "drop", false, "drop the graph tables first (reload)")
	f.IntVar(&o.workers, "workers", loader.DefaultWorkers, "concurrent COPY streams (PostgreSQL; SQLite has one writer)")
	f.StringVar(&o.failedRows, "failed-rows", "", "file for rejected rows (default DATA/failed_rows.csv)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress bar (there is none either when stderr is not a terminal)")
	addNebulaLoadFlags(f, &o.nebula)
	return cmd
}

func runLoad(ctx context.Context, env *Env, o loadOptions) error {
	if o.target == "" || o.data == "" {
		return usagef("load: --target and --data are required")
	}
	if o.workers < 1 {
		return usagef("load: --workers %d must be at least 1", o.workers)
	}
	if isNebulaTarget(o.target) {
		return runLoadNebula(ctx, env, o)
	}
	if err := o.nebula.checkUnused(); err != nil {
		return err
	}
	cfg := loader.Config{
		Target: o.target, Data: o.data, Drop: o.drop, Workers: o.workers,
		FailedRows: o.failedRows, Getenv: env.Getenv,
	}
	if !o.quiet && isTerminal(env.Stderr) {
		cfg.Progress = env.Stderr
	}
	st, err := loader.Load(ctx, cfg)
	if err != nil {
		if errors.Is(err, workload.ErrUsage) {
			return &UsageError{Err: err}
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
	fmt.Fprintf(w, "loaded %d rows in %s (%.0f rows/s); counts verified\n", st.Loaded, st.Elapsed.Round(time.Millisecond), float64(st.Loaded)/max(secs, 1e-9))
	fmt.Fprintf(w, "phases: rows %s (%.0f rows/s), keys+indexes+analyze %s, verify %s\n",
		st.Rows.Round(time.Millisecond), float64(st.Loaded)/max(st.Rows.Seconds(), 1e-9), st.Index.Round(time.Millisecond), st.Verify.Round(time.Millisecond))
	if st.FailedRows != "" {
		fmt.Fprintf(w, "%d rows failed: see %s\n", st.Failed, st.FailedRows)
	}
}
