package cli

import (
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/csvlog"
	"github.com/stampede-bench/stampede/internal/output/finish"
	"github.com/stampede-bench/stampede/internal/threshold"
	"github.com/stampede-bench/stampede/internal/version"
)

// requestLog is the per-request CSV.
type requestLog interface {
	engine.RequestLog
	Close() error
}

// fileRequestLog is the request CSV output (csvlog.File), closed by Close.
type fileRequestLog struct{ *csvlog.File }

func (l fileRequestLog) Close() error { return l.Stop() }

// openRequestLog creates the nebula-bench CSV at path.
func openRequestLog(path string) (requestLog, error) {
	f := csvlog.NewFile(path, csvlog.Options{})
	if err := f.Start(); err != nil {
		return nil, usagef("--csv: %v", err)
	}
	return fileRequestLog{f}, nil
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

// finishRun finishes the result directory dir of a run (finish.Dir):
// snapshot.json, summary.json (and --summary-export), summary.txt, the
// console summary (or the JSON with --json) on stdout and, unless
// --no-report, report.html. It reports whether a threshold failed.
func finishRun(env *Env, p *runPlan, dir string, snap *metrics.Snapshot) (failed bool, err error) {
	f := p.flags
	trendStats, err := f.k6.trendStatList()
	if err != nil {
		return false, err
	}
	var ts []threshold.Threshold
	if len(f.thresholds) > 0 && !f.k6.noThresholds {
		if ts, err = threshold.ParseAll(f.thresholds); err != nil {
			return false, asUsage(err)
		}
	}
	show := finish.PrintText
	switch {
	case f.k6.noSummary:
		show = finish.PrintNone
	case f.json:
		show = finish.PrintJSON
	}
	tty := isTTY(env.Stdout)
	res, err := finish.Dir(dir, snap, finish.Options{
		Thresholds: ts, TrendStats: trendStats, Tags: p.tags, NICSpeed: p.nicSpeed,
		SummaryExport: f.summaryOut, StdoutTTY: tty,
		Report: !f.noReport, Generator: "stampede " + version.String(),
	})
	if serr := res.Show(env.Stdout, show, finish.UseColor(tty, f.noColor, env.Getenv)); err == nil {
		err = serr
	}
	return res.Failed, err
}
