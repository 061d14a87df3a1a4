package run

import (
	"bytes"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/result/finish"
	"github.com/stampede-bench/stampede/threshold"
	"github.com/stampede-bench/stampede/verdict"
)

// checkThresholds verifies, once the metrics are known, that every
// threshold names an existing metric with a fitting statistic.
func checkThresholds(ts threshold.Set, reg *metrics.Registry, scenarios []string) error {
	return asUsage(checkThresholdMetrics(ts.List(), reg, scenarios))
}

// finishDir finishes the result directory of res (finish.Dir, the path
// merge takes too): snapshot.json, summary.json and summary.txt; the
// summaries are kept in res for the caller to display. What needs the
// finished run besides (report.html, a summary export) is an output's
// (output.Finisher).
func finishDir(deps Deps, p Plan, res *Result) error {
	var ts []threshold.Threshold
	if p.Thresholds.Len() > 0 && !p.NoThresholds {
		ts = p.Thresholds.List()
	}
	fin, err := finish.Dir(res.Dir, res.Snapshot, finish.Options{
		Thresholds: ts, TrendStats: p.TrendStats, SummaryMode: p.SummaryMode, Tags: res.Tags, NICSpeed: p.NICSpeed,
		StdoutTTY: deps.StdoutTTY, ConsoleWidth: deps.ConsoleWidth,
	})
	res.fin = fin
	res.Verdict = verdict.Of(res.Snapshot)
	res.Thresholds, res.ThresholdsFailed = fin.Thresholds, fin.Failed
	res.SummaryJSON, res.SummaryText = fin.JSON, fin.Text
	if fin.JSON != nil {
		var ansi bytes.Buffer
		if werr := fin.WriteConsole(&ansi, true); werr == nil {
			res.SummaryANSI = ansi.Bytes()
		}
	}
	return err
}
