package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/plugins"
	"github.com/stampede-bench/stampede/internal/result/finish"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/termio"
	"github.com/stampede-bench/stampede/internal/version"
	"github.com/stampede-bench/stampede/threshold"
	"github.com/stampede-bench/stampede/verdict"
)

// mergeFlags are the options of `stampede merge`.
type mergeFlags struct {
	force      bool
	out        string
	thresholds []string
	noCSV      bool
	noReport   bool
	json       bool
	quiet      bool
	noColor    bool
}

func newMergeCmd(env *Env) *cobra.Command {
	f := &mergeFlags{}
	cmd := &cobra.Command{
		Use:   "merge DIR... -o OUT",
		Short: "Combine the result directories of several instances into one, exactly",
		Long: `Combine the result directories of several stampede instances — typically the
segments of one distributed run (stampede run --segment i/N) — into one result
directory that report, compare and sweep read like any run.

Each DIR is a result directory or a directory holding result directories
(e.g. the shared volume of a Kubernetes job). HDR histograms are merged bucket
by bucket, so p95/p99 of the whole are exact; counters, checks, errors and VUs
are summed; per-second series are aligned by wall time (second for second
when the instances shared --start-at). OUT gets snapshot.json, series.jsonl,
options.json (segments listed, executors combined), env.json plus
env-<i>.json per instance, requests.csv (the parts' rows concatenated, not
re-sorted; --no-csv skips it), summary.json, summary.txt and report.html.

Thresholds are evaluated on the merged result: those given with --threshold,
otherwise those the instances ran with. Exit code 99 when one fails.`,
		Example: `  stampede merge results/seg-1 results/seg-2 results/seg-3 results/seg-4 -o results/all
  stampede merge /results/stampede-job -o merged --threshold 'responseTime: p(99)<250'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(env, f, args)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.out, "out", "o", "", "merged result directory (required; must not hold a run)")
	fs.StringArrayVar(&f.thresholds, "threshold", nil, "k6 threshold evaluated on the merged result (repeatable; default: the instances' own)")
	fs.BoolVar(&f.noCSV, "no-csv", false, "do not concatenate the instances' requests.csv")
	fs.BoolVar(&f.force, "force", false, "merge result directories with different scenario sets or targets")
	fs.BoolVar(&f.noReport, "no-report", false, "do not write report.html into OUT")
	fs.BoolVar(&f.json, "json", false, "print the summary JSON on stdout instead of the console summary")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print nothing but errors and failed thresholds")
	fs.BoolVar(&f.noColor, "no-color", false, "print the summary without colors (so does NO_COLOR=1)")
	return cmd
}

func runMerge(env *Env, f *mergeFlags, args []string) error {
	if f.out == "" {
		return usagef("merge needs -o OUT, the merged result directory")
	}
	if resultdir.IsResult(f.out) {
		return usagef("result directory %s already holds a run; choose another -o", f.out)
	}
	if err := run.CheckWritableFile(filepath.Join(f.out, resultdir.SummaryFile)); err != nil {
		return usagef("-o %s: %v", f.out, err) // unwritable output: bad input, before any merging
	}
	res, err := finish.Merge(args, f.out, finish.MergeOptions{Requests: !f.noCSV, Force: f.force, RateTrends: plugins.RateTrends(env.catalog())})
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(env.Stderr, "warning: %s\n", w)
	}
	show := finish.PrintText
	switch {
	case f.quiet:
		show = finish.PrintNone
	case f.json:
		show = finish.PrintJSON
	}
	tty := termio.IsTerminal(env.Stdout)
	fin, err := finish.Merged(res, f.thresholds, finish.Options{StdoutTTY: tty, Report: !f.noReport, Generator: "stampede " + version.String()})
	if fin == nil {
		return err // bad --threshold
	}
	if serr := fin.Show(env.Stdout, show, finish.UseColor(tty, f.noColor, env.Getenv)); err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	results := fin.Thresholds
	if !f.quiet && !f.json {
		segs := ""
		if res.Options.Segment != "" {
			segs = " (segments " + res.Options.Segment + ")"
		}
		fmt.Fprintf(env.Stderr, "merged %d result directories%s into %s: %d scenarios, %d series points\n",
			len(res.Parts), segs, res.Dir, len(res.Snapshot.Scenarios), res.Points)
	}
	if v := verdict.Of(res.Snapshot); v.Failed() {
		return &ExitError{Code: ExitRunError, Msg: "merged result: " + v.FailLine()}
	}
	if threshold.Failed(results) {
		if f.quiet {
			for _, r := range results {
				if !r.Pass {
					fmt.Fprintln(env.Stderr, r.String())
				}
			}
		}
		return &ExitError{Code: ExitThresholdsFailed, Msg: "some thresholds have failed on the merged result"}
	}
	return nil
}
