package cli

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

// parseThreshold checks one --threshold value.
func parseThreshold(s string) (threshold.Threshold, error) {
	t, err := threshold.Parse(s)
	if err != nil {
		return t, asUsage(err)
	}
	return t, nil
}

// checkThresholds verifies, once the metrics are known, that every
// threshold names an existing metric with a fitting statistic.
func checkThresholds(specs []string, reg *metrics.Registry, scenarios []string) error {
	ts, err := threshold.ParseAll(specs)
	if err != nil {
		return asUsage(err)
	}
	return asUsage(threshold.Check(ts, reg, scenarios))
}

// writeSummaries evaluates thresholds, writes summary.json and summary.txt
// into dir (and --summary-export), and prints the console summary (or the
// JSON with --json) on stdout. It reports whether a threshold failed.
func writeSummaries(env *Env, p *runPlan, dir string, snap *metrics.Snapshot) (failed bool, err error) {
	f := p.flags
	var results []threshold.Result
	trendStats, err := f.k6.trendStatList()
	if err != nil {
		return false, err
	}
	if len(f.thresholds) > 0 && !f.k6.noThresholds {
		ts, err := threshold.ParseAll(f.thresholds)
		if err != nil {
			return false, asUsage(err)
		}
		results = threshold.Evaluate(snap, ts)
		failed = threshold.Failed(results)
	}
	tgt, err := targetStats(dir, snap, p.nicSpeed) // --monitor, when given
	if err != nil {
		return failed, fmt.Errorf("monitor: %w", err)
	}
	var js bytes.Buffer
	if err := summary.WriteJSON(&js, snap, summary.JSONOptions{Thresholds: results, IsStdOutTTY: isTTY(env.Stdout), TrendStats: trendStats, Target: tgt, Tags: p.tags}); err != nil {
		return failed, err
	}
	if err := resultdir.WriteFile(dir, resultdir.SummaryFile, js.Bytes()); err != nil {
		return failed, err
	}
	if f.summaryOut != "" {
		if err := os.WriteFile(f.summaryOut, js.Bytes(), 0o644); err != nil {
			return failed, fmt.Errorf("--summary-export: %w", err)
		}
	}
	var txt bytes.Buffer
	if err := summary.WriteConsole(&txt, snap, summary.ConsoleOptions{Thresholds: results, TrendStats: trendStats, Target: tgt}); err != nil {
		return failed, err
	}
	if err := resultdir.WriteFile(dir, resultdir.ConsoleFile, txt.Bytes()); err != nil {
		return failed, err
	}
	switch {
	case f.k6.noSummary:
	case f.json:
		_, err = env.Stdout.Write(js.Bytes())
	case isTTY(env.Stdout) && !f.noColor:
		err = summary.WriteConsole(env.Stdout, snap, summary.ConsoleOptions{Thresholds: results, Color: true, TrendStats: trendStats, Target: tgt})
	default:
		_, err = env.Stdout.Write(txt.Bytes())
	}
	return failed, err
}
