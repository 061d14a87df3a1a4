package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/result/report"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/version"
)

// reportOptions are the flags of `stampede report`.
type reportOptions struct {
	out       string
	title     string
	maxPoints int
	labels    []string
	quiet     bool
}

func newReportCmd(env *Env) *cobra.Command {
	var o reportOptions
	cmd := &cobra.Command{
		Use:   "report RESULT_DIR... [-o report.html]",
		Short: "Write the HTML report of one or more result directories",
		Long: `report writes one self-contained HTML file (no network access when viewed)
with, per scenario, throughput, response-time percentiles and errors over
time, the full response-time percentile distribution, errors by message,
checks, and the options and environment of each run.

Several result directories overlay in the same charts. A directory holding
result directories (repeated runs, or the steps of a sweep) stands for all
of them; the steps of a sweep also get scaling curves: throughput against
load, latency against throughput and, for node sweeps, throughput per node
and scaling efficiency.

Without -o, the report of a single argument goes into that directory as
report.html; the report of several goes to ./report.html. "-o -" writes to
standard output. See docs/reports.md.`,
		Example: `  stampede report stampede-results/2026-05-04T10-00-00
  stampede report baseline/ candidate/ -o compare.html
  stampede report sweeps/vus -o vus-sweep.html`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReport(env, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "HTML file to write (default RESULT_DIR/report.html for one argument, ./report.html for several; - for stdout)")
	f.StringVar(&o.title, "title", "", "page title (default: the run names)")
	f.IntVar(&o.maxPoints, "max-points", 600, "most points per time series (≥ 10); buckets keep means, peaks and merged percentiles")
	f.StringArrayVar(&o.labels, "label", nil, "legend name of each run, in order (repeatable; default the directory names)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "do not print the report's path")
	return cmd
}

func runReport(env *Env, o reportOptions, args []string) error {
	out, runs, err := report.Request{Args: args, Out: o.out, CheckWritable: run.CheckWritableFile,
		Options: report.Options{Title: o.title, MaxPoints: o.maxPoints, Labels: o.labels, Generator: "stampede " + version.String()}}.Run(env.Stdout)
	if err != nil || out == "-" || o.quiet {
		return err
	}
	noun := "runs"
	if runs == 1 {
		noun = "run"
	}
	fmt.Fprintf(env.Stderr, "report: %s (%d %s)\n", out, runs, noun)
	return nil
}
