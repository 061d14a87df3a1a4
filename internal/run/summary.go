package run

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/csvlog"
	"github.com/stampede-bench/stampede/internal/output/summary"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/threshold"
)

// requestLog is the per-request CSV.
type requestLog interface {
	engine.RequestLog
	Close() error
}

// fileRequestLog is a csvlog.Log writing to a file it owns.
type fileRequestLog struct {
	*csvlog.Log
	f *os.File
}

func (l *fileRequestLog) Close() error {
	err := l.Log.Close()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// openRequestLog creates the nebula-bench CSV at path.
func openRequestLog(path string) (requestLog, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, usagef("--csv: %v", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, usagef("--csv: %v", err)
	}
	return &fileRequestLog{Log: csvlog.New(f, csvlog.Options{}), f: f}, nil
}

// checkThresholds verifies, once the metrics are known, that every
// threshold names an existing metric with a fitting statistic.
func checkThresholds(ts Thresholds, reg *metrics.Registry, scenarios []string) error {
	return asUsage(threshold.Check(ts.List(), reg, scenarios))
}

// writeSummaries evaluates thresholds and writes summary.json and
// summary.txt into res.Dir (and p.SummaryExport), keeping both in res for
// the caller to display.
func writeSummaries(deps Deps, p Plan, res *Result) error {
	dir, snap := res.Dir, res.Snapshot
	res.trendStats = p.TrendStats
	if p.Thresholds.Len() > 0 && !p.NoThresholds {
		res.Thresholds = threshold.Evaluate(snap, p.Thresholds.List())
		res.ThresholdsFailed = threshold.Failed(res.Thresholds)
	}
	tgt, err := targetStats(dir, snap, p.NICSpeed) // --monitor, when given
	if err != nil {
		return fmt.Errorf("monitor: %w", err)
	}
	res.target = tgt
	var js bytes.Buffer
	if err := summary.WriteJSON(&js, snap, summary.JSONOptions{Thresholds: res.Thresholds, IsStdOutTTY: deps.StdoutTTY, TrendStats: p.TrendStats, Target: tgt, Tags: res.Tags}); err != nil {
		return err
	}
	if err := resultdir.WriteFile(dir, resultdir.SummaryFile, js.Bytes()); err != nil {
		return err
	}
	if p.SummaryExport != "" {
		if err := os.WriteFile(p.SummaryExport, js.Bytes(), 0o644); err != nil {
			return fmt.Errorf("--summary-export: %w", err)
		}
	}
	var txt bytes.Buffer
	if err := summary.WriteConsole(&txt, snap, summary.ConsoleOptions{Thresholds: res.Thresholds, TrendStats: p.TrendStats, Target: tgt}); err != nil {
		return err
	}
	if err := resultdir.WriteFile(dir, resultdir.ConsoleFile, txt.Bytes()); err != nil {
		return err
	}
	res.SummaryJSON, res.SummaryText = js.Bytes(), txt.Bytes()
	return nil
}
