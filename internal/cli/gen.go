package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/ldbc/datagen"
	"github.com/stampede-bench/stampede/internal/workload/ldbc/ldbcfile"
)

// newGenCmd builds `stampede gen`, the parent of the data generators.
func newGenCmd(env *Env) *cobra.Command {
	gen := &cobra.Command{
		Use:   "gen",
		Short: "Generate benchmark data sets",
		Long: `gen writes standard benchmark data sets to disk, ready for stampede load
or any existing importer.`,
	}
	gen.AddCommand(newGenLDBCCmd(env))
	return gen
}

// genLDBCOptions are the flags of `stampede gen ldbc`.
type genLDBCOptions struct {
	sf      float64
	out     string
	seed    int64
	workers int
	force   bool
	quiet   bool
	layout  string
	updates bool
	nebula  genNebulaOptions
}

func newGenLDBCCmd(env *Env) *cobra.Command {
	var o genLDBCOptions
	cmd := &cobra.Command{
		Use:   "ldbc --sf SF --out DIR",
		Short: "Generate an LDBC SNB social network (persons, knows, attributes, parameters)",
		Long: `ldbc generates the persons, knows edges and person attributes of an LDBC SNB
social network, with the static places, organisations, tags and tag classes,
in the CsvBasic layout of ldbc_snb_datagen_hadoop (social_network/static and
social_network/dynamic), plus substitution parameters for the graph scenarios
(substitution_parameters/). The same --sf and --seed always give the same
bytes, whatever --workers is. --layout CsvMergeForeign writes the one-to-one
relations (person, static and activity: forum moderator, post/comment
creator, container, place, reply-of) as columns of their entity files
instead, as the Hadoop datagen does. --update-streams also writes LDBC's
Interactive update streams (social_network/updateStream_0_0_person.csv and
updateStream_0_0_forum.csv: IU1-IU8 inserts of what was created after the
cut-over at 90% of the period, which the bulk files then leave out). See
docs/datagen.md.`,
		Example: `  stampede gen ldbc --sf 1 --out data/sf1
  stampede gen ldbc --sf 10 --out data/sf10 --seed 7 --workers 4 --force
  stampede gen ldbc --sf 1 --out data/sf1u --update-streams`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runGenLDBC(cmd.Context(), env, o)
		},
	}
	f := cmd.Flags()
	f.Float64Var(&o.sf, "sf", 1, "LDBC scale factor: 0.1, 0.3, 1, 3, 10, 30, 100 (below 0.1 for small test sets)")
	f.StringVar(&o.out, "out", "", "output directory (required; must be empty unless --force)")
	f.Int64Var(&o.seed, "seed", 42, "random seed; the same seed gives byte-identical output")
	f.IntVar(&o.workers, "workers", runtime.NumCPU(), "goroutines generating rows (changes speed, never output)")
	f.BoolVar(&o.force, "force", false, "replace a data set stampede wrote into --out before (only the files its stampede-manifest.txt lists; any other file makes it refuse)")
	f.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	f.StringVar(&o.layout, "layout", datagen.LayoutCsvBasic, "CSV layout: CsvBasic, or CsvMergeForeign (one-to-one relations as entity columns: person.place, place.isPartOf, organisation.place, tag.hasType, tagclass.isSubclassOf, forum.moderator, post.creator/Forum.id/place, comment.creator/place/replyOfPost/replyOfComment; their relation files not written)")
	f.BoolVar(&o.updates, "update-streams", false, "split at LDBC's cut-over (90% of the period): what was created after it goes to social_network/updateStream_0_0_{person,forum}.csv (IU1-IU8 inserts, sorted by time) instead of the bulk files")
	addGenNebulaFlags(f, &o.nebula)
	return cmd
}

func runGenLDBC(ctx context.Context, env *Env, o genLDBCOptions) error {
	if o.out == "" {
		return usagef("gen ldbc: --out is required")
	}
	if o.layout != datagen.LayoutCsvBasic && o.layout != datagen.LayoutCsvMergeForeign {
		return usagef("gen ldbc: --layout %q must be %s or %s", o.layout, datagen.LayoutCsvBasic, datagen.LayoutCsvMergeForeign)
	}
	if o.workers < 1 {
		return usagef("gen ldbc: --workers %d must be at least 1", o.workers)
	}
	if err := o.nebula.check(); err != nil {
		return err
	}
	cfg := datagen.Config{SF: o.sf, Out: o.out, Seed: o.seed, Workers: o.workers, Force: o.force, Layout: o.layout, UpdateStreams: o.updates,
		Note: func(line string) { fmt.Fprintf(env.Stderr, "gen ldbc: %s\n", line) }}
	var bar *progressbar.ProgressBar
	if !o.quiet && isTerminal(env.Stderr) {
		bar = progressbar.NewOptions64(-1,
			progressbar.OptionSetWriter(env.Stderr),
			progressbar.OptionSetDescription(fmt.Sprintf("gen ldbc sf %v", o.sf)),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("rows"),
			progressbar.OptionSpinnerType(14),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		cfg.Progress = func(rows int64) { _ = bar.Set64(rows) }
	}
	st, err := datagen.Generate(ctx, cfg)
	if bar != nil {
		_ = bar.Finish()
	}
	switch {
	case usage.Is(err):
		return asUsage(fmt.Errorf("gen ldbc: %w", err))
	case err != nil && ctx.Err() != nil:
		return &ExitError{Code: ExitInterrupted, Msg: fmt.Sprintf("gen ldbc: interrupted: the incomplete data set was removed, nothing was written to %s", o.out)}
	case err != nil:
		return fmt.Errorf("gen ldbc: %w", err)
	}
	if !o.quiet {
		fmt.Fprintf(env.Stderr, "gen ldbc: %d rows in %.2fs (%.0f rows/s)\n",
			totalRows(st), st.Elapsed.Seconds(), float64(totalRows(st))/st.Elapsed.Seconds())
	}
	if err := writeGenSummary(env.Stdout, o, st); err != nil {
		return err
	}
	return o.nebula.write(env, o.out)
}

// writeGenSummary prints the counts table: one line per file in
// ldbcfile.Files order, then the totals.
func writeGenSummary(w io.Writer, o genLDBCOptions, st datagen.Stats) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\trows\n")
	files := append(ldbcfile.Files(), ldbcfile.ActivityFiles()...)
	for _, f := range append(files, ldbcfile.InteractiveParamFiles()...) {
		if n, ok := st.Files[f.Path]; ok {
			fmt.Fprintf(tw, "%s\t%d\n", f.Path, n)
		}
	}
	for _, p := range ldbcfile.UpdateStreamFiles() {
		if n, ok := st.Files[p]; ok {
			fmt.Fprintf(tw, "%s\t%d\n", p, n)
		}
	}
	fmt.Fprintf(tw, "\n")
	fmt.Fprintf(tw, "persons\t%d\n", st.Persons)
	fmt.Fprintf(tw, "knows\t%d\n", st.Knows)
	fmt.Fprintf(tw, "total rows\t%d\n", totalRows(st))
	fmt.Fprintf(tw, "elapsed\t%.2fs\n", st.Elapsed.Seconds())
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "LDBC SNB sf %v seed %d written to %s\n", o.sf, o.seed, o.out)
	return err
}

func totalRows(st datagen.Stats) int64 {
	var n int64
	for _, r := range st.Files {
		n += r
	}
	return n
}

// isTerminal reports whether w is a terminal (an *os.File on a tty).
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}
