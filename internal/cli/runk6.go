package cli

import (
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/output/webdash"
	"github.com/stampede-bench/stampede/internal/result/summary"
	"github.com/stampede-bench/stampede/internal/runconfig"
)

// k6Flags are k6's run options that stampede shares (see addK6Flags).
type k6Flags struct {
	env          []string // -e KEY=VALUE
	tags         []string // --tag KEY=VALUE
	trendStats   string
	summaryMode  string
	noThresholds bool
	noSummary    bool
	insecure     bool
	userAgent    string
	// The web dashboard (k6's --web-dashboard*, also K6_WEB_DASHBOARD*).
	dashboard       bool
	dashboardHost   string
	dashboardPort   int
	dashboardPeriod time.Duration
	dashboardExport string
}

// k6FlagNames lists the flags of addK6Flags, for the help section.
var k6FlagNames = []string{"env", "tag", "summary-trend-stats", "summary-mode", "no-thresholds", "no-summary", "insecure-skip-tls-verify", "user-agent",
	"web-dashboard", "web-dashboard-host", "web-dashboard-port", "web-dashboard-period", "web-dashboard-export"}

// addK6Flags registers k6's option flags on run.
func addK6Flags(fs *pflag.FlagSet, k *k6Flags) {
	fs.StringArrayVarP(&k.env, "env", "e", nil, "KEY=VALUE for {{__ENV.KEY}} in request templates, like k6's -e (repeatable)")
	fs.StringArrayVar(&k.tags, "tag", nil, "KEY=VALUE tag on every output: summary, k6 JSON/CSV streams, Prometheus labels, InfluxDB tags (repeatable; testid defaults to the result directory's name)")
	fs.StringVar(&k.trendStats, "summary-trend-stats", "", "trend statistics in the summary, e.g. avg,min,med,max,p(90),p(95),p(99.9),count (default k6's)")
	fs.StringVar(&k.summaryMode, "summary-mode", summary.ModeCompact, "end-of-test summary layout, as k6 v1: compact (totals in k6's sections), full (plus every scenario's metrics), legacy (one block per scenario) or disabled (as --no-summary)")
	fs.BoolVar(&k.noThresholds, "no-thresholds", false, "do not evaluate thresholds (a failed one no longer exits 99)")
	fs.BoolVar(&k.noSummary, "no-summary", false, "do not print the end-of-test summary (the result directory and --summary-export still get it)")
	fs.BoolVar(&k.insecure, "insecure-skip-tls-verify", false, "accept any TLS certificate of an https:// target")
	fs.StringVar(&k.userAgent, "user-agent", "", `HTTP User-Agent header (default "stampede")`)
	fs.BoolVar(&k.dashboard, "web-dashboard", false, "serve a live web dashboard (the report's charts, updated every second) while the run goes; env K6_WEB_DASHBOARD=true")
	fs.StringVar(&k.dashboardHost, "web-dashboard-host", webdash.DefaultHost, "address the web dashboard listens on; env K6_WEB_DASHBOARD_HOST")
	fs.IntVar(&k.dashboardPort, "web-dashboard-port", webdash.DefaultPort, "port of the web dashboard (0: any free port; -1: no server, only the export); env K6_WEB_DASHBOARD_PORT")
	fs.DurationVar(&k.dashboardPeriod, "web-dashboard-period", webdash.DefaultPeriod, "how often the web dashboard is updated; env K6_WEB_DASHBOARD_PERIOD")
	fs.StringVar(&k.dashboardExport, "web-dashboard-export", "", "write the dashboard's page (the run's report.html) to FILE at the end; env K6_WEB_DASHBOARD_EXPORT")
}

// applyK6Env sets the web dashboard's flags that neither the command
// line nor STAMPEDE_<FLAG> gave from K6_<FLAG> (K6_WEB_DASHBOARD=true),
// as k6 reads them.
func applyK6Env(fs *pflag.FlagSet, getenv func(string) string) error {
	return runconfig.ApplyEnv(fs, getenv, "K6_", func(name string) bool { return strings.HasPrefix(name, "web-dashboard") })
}

// webDashboard is the dashboard of the plan: the flags, then k6's
// --out web-dashboard[=PARAMS] values (outArgs) for the settings no flag
// gave.
func (k *k6Flags) webDashboard(outArgs []string, changed func(string) bool) (webdash.Settings, error) {
	w := webdash.Settings{Serve: k.dashboard, Host: k.dashboardHost, Port: k.dashboardPort, Period: k.dashboardPeriod, Export: k.dashboardExport}
	for _, arg := range outArgs {
		var err error
		if w, err = w.WithParams(arg, changed); err != nil {
			return w, asUsage(err)
		}
	}
	w, err := w.Checked()
	return w, asUsage(err)
}

// check validates the k6 flags before anything runs.
func (k *k6Flags) check() error {
	if _, err := runconfig.ParseKV("-e/--env", k.env); err != nil {
		return err
	}
	if _, err := runconfig.ParseKV("--tag", k.tags); err != nil {
		return err
	}
	if _, err := k.trendStatList(); err != nil {
		return err
	}
	if err := summary.CheckMode(k.layout()); err != nil {
		return usagef("%v", err)
	}
	if strings.ContainsAny(k.userAgent, "\r\n") {
		return usagef("--user-agent must be one line")
	}
	return nil
}

// summaryDisabled is k6's --summary-mode that prints no summary.
const summaryDisabled = "disabled"

// quietSummary reports whether stdout gets no summary: --no-summary, or
// k6's --summary-mode disabled.
func (k *k6Flags) quietSummary() bool { return k.noSummary || k.summaryMode == summaryDisabled }

// layout is the summary's layout: --summary-mode, compact when disabled
// (summary.txt is still written).
func (k *k6Flags) layout() string {
	if k.summaryMode == summaryDisabled {
		return summary.ModeCompact
	}
	return k.summaryMode
}

// vars returns the -e values.
func (k *k6Flags) vars() map[string]string {
	m, _ := runconfig.ParseKV("-e/--env", k.env)
	return m
}

// trendStatList is --summary-trend-stats parsed (nil: the defaults).
func (k *k6Flags) trendStatList() ([]string, error) {
	if k.trendStats == "" {
		return nil, nil
	}
	st, err := summary.ParseTrendStats(k.trendStats)
	if err != nil {
		return nil, usagef("--summary-trend-stats: %v", err)
	}
	return st, nil
}
