package graph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/stampede-bench/stampede/flags"
	"github.com/stampede-bench/stampede/internal/progress/termbar"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ngqlload"
)

var _ workload.Commander = (*Family)(nil)

// Commands implements workload.Commander: `stampede gen ldbc`, the data
// generator, and `stampede load`, the bulk loader.
func (*Family) Commands() []workload.Command {
	return []workload.Command{{
		Use:   "gen",
		Short: "Generate benchmark data sets",
		Long: `gen writes standard benchmark data sets to disk, ready for stampede load
or any existing importer.`,
		Sub: []workload.Command{genCommand()},
	}, loadCommand()}
}

// genOptions are the flags of `stampede gen ldbc`.
type genOptions struct {
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

func (o *genOptions) bind(f flags.Set) {
	f.Float64Var(&o.sf, "sf", 1, "LDBC scale factor: 0.1, 0.3, 1, 3, 10, 30, 100 (below 0.1 for small test sets)")
	f.StringVar(&o.out, "out", "", "output directory (required; must be empty unless --force)")
	f.Int64Var(&o.seed, "seed", 42, "random seed; the same seed gives byte-identical output")
	f.IntVar(&o.workers, "workers", runtime.NumCPU(), "goroutines generating rows (changes speed, never output)")
	f.BoolVar(&o.force, "force", false, "replace a data set stampede wrote into --out before (only the files its stampede-manifest.txt lists; any other file makes it refuse)")
	f.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	f.StringVar(&o.layout, "layout", datagen.LayoutCsvBasic, "CSV layout: CsvBasic, or CsvMergeForeign (one-to-one relations as entity columns: person.place, place.isPartOf, organisation.place, tag.hasType, tagclass.isSubclassOf, forum.moderator, post.creator/Forum.id/place, comment.creator/place/replyOfPost/replyOfComment; their relation files not written)")
	f.BoolVar(&o.updates, "update-streams", false, "split at LDBC's cut-over (90% of the period): what was created after it goes to social_network/updateStream_0_0_{person,forum}.csv (IU1-IU8 inserts, sorted by time) instead of the bulk files")
	f.StringVar(&o.nebula.importer, "nebula-importer", "", "also write a nebula-importer YAML configuration for the data set to FILE (must not exist)")
	f.StringVar(&o.nebula.space, "nebula-space", "ldbc", "NebulaGraph space named in the --nebula-importer configuration")
}

func genCommand() workload.Command {
	o := &genOptions{}
	return workload.Command{
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
		Flags: o.bind,
		Run:   func(ctx context.Context, env *workload.CommandEnv) error { return runGen(ctx, env, *o) },
	}
}

func runGen(ctx context.Context, env *workload.CommandEnv, o genOptions) error {
	if o.out == "" {
		return usage.Errorf("gen ldbc: --out is required")
	}
	if o.layout != datagen.LayoutCsvBasic && o.layout != datagen.LayoutCsvMergeForeign {
		return usage.Errorf("gen ldbc: --layout %q must be %s or %s", o.layout, datagen.LayoutCsvBasic, datagen.LayoutCsvMergeForeign)
	}
	if o.workers < 1 {
		return usage.Errorf("gen ldbc: --workers %d must be at least 1", o.workers)
	}
	if err := o.nebula.check(); err != nil {
		return err
	}
	cfg := datagen.Config{SF: o.sf, Out: o.out, Seed: o.seed, Workers: o.workers, Force: o.force, Layout: o.layout, UpdateStreams: o.updates,
		Note: func(line string) { fmt.Fprintf(env.Stderr, "gen ldbc: %s\n", line) }}
	finish := func() {}
	if !o.quiet && env.StderrTerminal {
		cfg.Progress, finish = termbar.Spinner(env.Stderr, fmt.Sprintf("gen ldbc sf %v", o.sf), "rows")
	}
	st, err := datagen.Generate(ctx, cfg)
	finish()
	switch {
	case usage.Is(err):
		return usage.Wrap(fmt.Errorf("gen ldbc: %w", err))
	case err != nil && ctx.Err() != nil:
		// The command line exits 130 for an error after Ctrl+C.
		return errors.New("gen ldbc: interrupted: the incomplete data set was removed, nothing was written to " + o.out)
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
	return o.nebula.write(env.Stdout, o.out)
}

// writeGenSummary prints the counts table: one line per file in
// ldbcfile.Files order, then the totals.
func writeGenSummary(w io.Writer, o genOptions, st datagen.Stats) error {
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

// genNebulaOptions: `stampede gen ldbc --nebula-importer FILE`.
type genNebulaOptions struct {
	importer string
	space    string
}

func (o *genNebulaOptions) check() error {
	if o.importer == "" {
		return nil
	}
	if _, err := os.Stat(o.importer); err == nil {
		return usage.Errorf("gen ldbc: --nebula-importer %s exists; not overwriting it", o.importer)
	}
	if o.space == "" || strings.ContainsAny(o.space, "`\"' ;/") {
		return usage.Errorf("gen ldbc: --nebula-space %q: want one name", o.space)
	}
	return nil
}

func (o *genNebulaOptions) write(stdout io.Writer, dataDir string) error {
	if o.importer == "" {
		return nil
	}
	f, err := os.OpenFile(o.importer, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("gen ldbc: %w", err)
	}
	if err := ngqlload.WriteImporterConfig(f, dataDir, o.space); err != nil {
		f.Close()
		return fmt.Errorf("gen ldbc: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("gen ldbc: %w", err)
	}
	fmt.Fprintf(stdout, "nebula-importer configuration written to %s (space %s)\n", o.importer, o.space)
	return nil
}
