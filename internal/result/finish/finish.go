// Package finish writes what ends every result directory, the same way
// for a run, a merge and each step of a sweep: the final snapshot, the
// summaries (summary.json in k6's --summary-export shape, summary.txt),
// the HTML report — and the one way to show the summary on stdout
// (Result.Show, UseColor).
//
// What the live outputs write themselves (series.jsonl, selfcheck.json,
// the request logs) and what a run writes before it starts (options.json,
// env.json) are not finish's job; Dir expects them in place, since the
// report reads them.
package finish

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/result/report"
	"github.com/stampede-bench/stampede/internal/result/summary"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/threshold"
)

// Print is what Result.Show prints.
type Print int

const (
	// PrintText prints the console summary (the default).
	PrintText Print = iota
	// PrintJSON prints summary.json.
	PrintJSON
	// PrintNone prints nothing.
	PrintNone
)

// Options say how to finish a result directory. The zero value writes
// the files and no report.
type Options struct {
	// Thresholds are evaluated on the snapshot; their results go into the
	// summaries. Nil: none.
	Thresholds []threshold.Threshold
	// TrendStats are the trend columns (k6's --summary-trend-stats); nil:
	// summary.DefaultTrendStats.
	TrendStats []string
	// SummaryMode is the console summary's layout (summary.ModeCompact,
	// ModeFull, ModeLegacy; "": compact, k6 v1's default).
	SummaryMode string
	// ConsoleWidth is the terminal's width for the summary printed in
	// colour (0: summary.DefaultWidth); summary.txt is always 80 columns.
	ConsoleWidth int
	// Tags are the run's tags, written into summary.json.
	Tags map[string]string
	// NICSpeed is the target's NIC speed in bytes per second for the
	// --monitor summaries (0: unknown).
	NICSpeed float64
	// StdoutTTY tells that stdout is a terminal (k6 reports it in
	// summary.json's "state").
	StdoutTTY bool
	// Report writes report.html; Generator names the tool in its footer.
	Report    bool
	Generator string
}

// UseColor is the one rule for colored console output: stdout is a
// terminal, and neither --no-color nor the NO_COLOR environment variable
// (https://no-color.org, any non-empty value) asks otherwise.
func UseColor(stdoutTTY, noColorFlag bool, getenv func(string) string) bool {
	if !stdoutTTY || noColorFlag {
		return false
	}
	return getenv == nil || getenv("NO_COLOR") == ""
}

// Result is what finishing found and wrote.
type Result struct {
	// Thresholds are the evaluated thresholds, in the order given.
	Thresholds []threshold.Result
	// Failed tells that a threshold failed.
	Failed bool
	// JSON and Text are summary.json and summary.txt as written (nil when
	// they could not be made).
	JSON, Text []byte

	snap       *metrics.Snapshot
	trendStats []string
	mode       string
	width      int
	target     map[string][]monitor.Stats
}

// Dir finishes the result directory dir with snap, in this order:
// snapshot.json, summary.json, summary.txt,
// report.html. A step that fails does not stop the later ones (what was
// measured is written as far as possible); Dir returns the first error,
// and always a Result: thresholds are evaluated even when a file cannot be
// written. Showing the summary is the caller's (Result.Show).
func Dir(dir string, snap *metrics.Snapshot, o Options) (*Result, error) {
	if o.SummaryMode == "" {
		o.SummaryMode = summary.ModeCompact // k6 v1's default, for run, merge and sweep alike
	}
	res := &Result{snap: snap, trendStats: o.TrendStats, mode: o.SummaryMode, width: o.ConsoleWidth}
	if len(o.Thresholds) > 0 {
		res.Thresholds = threshold.Evaluate(snap, o.Thresholds)
		res.Failed = threshold.Failed(res.Thresholds)
	}
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	keep(resultdir.WriteJSON(dir, resultdir.SnapshotFile, snap))
	keep(res.summaries(dir, o))
	if o.Report {
		keep(writeReport(dir, snap, o.Generator))
	}
	if len(errs) > 0 {
		return res, errs[0]
	}
	return res, nil
}

// summaries writes summary.json and summary.txt.
func (r *Result) summaries(dir string, o Options) error {
	tgt, err := TargetStats(dir, r.snap, o.NICSpeed) // --monitor, when given
	if err != nil {
		return fmt.Errorf("monitor: %w", err)
	}
	r.target = tgt
	var js bytes.Buffer
	if err := summary.WriteJSON(&js, r.snap, summary.JSONOptions{Thresholds: r.Thresholds, IsStdOutTTY: o.StdoutTTY, TrendStats: o.TrendStats, Target: tgt, Tags: o.Tags}); err != nil {
		return err
	}
	var txt bytes.Buffer
	if err := summary.WriteConsole(&txt, r.snap, summary.ConsoleOptions{Thresholds: r.Thresholds, TrendStats: o.TrendStats, Target: tgt, Mode: o.SummaryMode}); err != nil {
		return err
	}
	r.JSON, r.Text = js.Bytes(), txt.Bytes()
	var errs []error // each file is written even when another fails
	if err := resultdir.WriteFile(dir, resultdir.SummaryFile, r.JSON); err != nil {
		errs = append(errs, err)
	}
	if err := resultdir.WriteFile(dir, resultdir.ConsoleFile, r.Text); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// Show prints the summary on w the one way run and merge do: nothing,
// summary.json (PrintJSON), or the console summary — in colour when color
// is set (decide with UseColor), else exactly summary.txt. Nothing is
// printed when the summary could not be made.
func (r *Result) Show(w io.Writer, mode Print, color bool) error {
	if r == nil || r.JSON == nil || mode == PrintNone {
		return nil
	}
	if mode == PrintJSON {
		_, err := w.Write(r.JSON)
		return err
	}
	return r.WriteConsole(w, color)
}

// WriteConsole writes the end-of-test summary, in colour when color is
// set (summary.txt is the same without colour).
func (r *Result) WriteConsole(w io.Writer, color bool) error {
	if !color {
		_, err := w.Write(r.Text)
		return err
	}
	return summary.WriteConsole(w, r.snap, summary.ConsoleOptions{Thresholds: r.Thresholds, Color: true, TrendStats: r.trendStats, Target: r.target, Mode: r.mode, Width: r.width})
}

// writeReport renders report.html from what dir holds, with snap as its
// snapshot (a directory without options.json still gets its report).
func writeReport(dir string, snap *metrics.Snapshot, generator string) error {
	if err := renderReport(dir, snap, generator); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// renderReport is writeReport without naming itself in its error.
func renderReport(dir string, snap *metrics.Snapshot, generator string) error {
	return report.WriteRun(filepath.Join(dir, resultdir.ReportFile), dir, snap, report.Options{Generator: generator})
}

// TargetStats summarizes the monitor file of dir per scenario, over each
// scenario's measured span (warm-up left out); nil without monitoring.
// nicSpeed is the NIC speed in bytes per second (0: unknown).
func TargetStats(dir string, snap *metrics.Snapshot, nicSpeed float64) (map[string][]monitor.Stats, error) {
	w := make([]monitor.Window, len(snap.Scenarios))
	for i, sc := range snap.Scenarios {
		w[i] = monitor.Window{From: sc.Start.Add(sc.Warmup), To: sc.End}
	}
	all, err := monitor.Summarize(dir, w, monitor.SummarizeOptions{NICSpeed: nicSpeed})
	if err != nil || all == nil {
		return nil, err
	}
	out := map[string][]monitor.Stats{}
	for i, sc := range snap.Scenarios {
		if len(all[i]) > 0 {
			out[sc.Name] = all[i]
		}
	}
	return out, nil
}
