package run

import (
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/csvlog"
	"github.com/stampede-bench/stampede/internal/output/finish"
	"github.com/stampede-bench/stampede/internal/reqlog"
	"github.com/stampede-bench/stampede/internal/threshold"
	"github.com/stampede-bench/stampede/internal/verdict"
	"github.com/stampede-bench/stampede/internal/version"
)

// requestLog is the per-request CSV.
type requestLog interface {
	reqlog.Log
	Close() error
}

// fileRequestLog is the request CSV output (csvlog.File), closed by Close.
type fileRequestLog struct{ *csvlog.File }

func (l fileRequestLog) Close() error { return l.Stop() }

// openRequestLog creates the nebula-bench CSV at path; its statement
// column is named nGQL for a NebulaGraph target (as nebula-bench and its
// k6 plugin name it), query otherwise.
func openRequestLog(path, target string) (requestLog, error) {
	col := csvlog.StatementQuery
	if strings.HasPrefix(strings.ToLower(target), "nebula://") {
		col = csvlog.StatementNGQL
	}
	f := csvlog.NewFile(path, csvlog.Options{StatementColumn: col})
	if err := f.Start(); err != nil {
		return nil, usagef("--csv: %v", err)
	}
	return fileRequestLog{f}, nil
}

// checkThresholds verifies, once the metrics are known, that every
// threshold names an existing metric with a fitting statistic.
func checkThresholds(ts Thresholds, reg *metrics.Registry, scenarios []string) error {
	return asUsage(threshold.Check(ts.List(), reg, scenarios))
}

// finishDir finishes the result directory of res (finish.Dir, the path
// merge takes too): snapshot.json, summary.json (and p.SummaryExport),
// summary.txt and, unless p.NoReport, report.html; the summaries are kept
// in res for the caller to display.
func finishDir(deps Deps, p Plan, res *Result) error {
	var ts []threshold.Threshold
	if p.Thresholds.Len() > 0 && !p.NoThresholds {
		ts = p.Thresholds.List()
	}
	fin, err := finish.Dir(res.Dir, res.Snapshot, finish.Options{
		Thresholds: ts, TrendStats: p.TrendStats, SummaryMode: p.SummaryMode, Tags: res.Tags, NICSpeed: p.NICSpeed,
		SummaryExport: p.SummaryExport, StdoutTTY: deps.StdoutTTY, ConsoleWidth: deps.ConsoleWidth,
		Report: !p.NoReport, ReportExport: p.WebDashboard.exportPath(p.Repeat, p.Run), Generator: "stampede " + version.String(),
	})
	res.fin = fin
	res.Verdict = verdict.Of(res.Snapshot)
	res.Thresholds, res.ThresholdsFailed = fin.Thresholds, fin.Failed
	res.SummaryJSON, res.SummaryText = fin.JSON, fin.Text
	return err
}
