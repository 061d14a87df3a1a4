// Package outputs builds the registry of stampede's own outputs: what
// --out NAME=ARG accepts, and the outputs the command line adds from its
// flags (the request CSV, series.jsonl, report.html, --summary-export,
// --prometheus, --web-dashboard). A program that adds an output of its own builds this
// registry and calls Add on it; there is no global registry. It is the
// one place that names the concrete outputs: the run only gets the
// registry.
package outputs

import (
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/csvlog"
	"github.com/stampede-bench/stampede/internal/output/influx"
	"github.com/stampede-bench/stampede/internal/output/k6stream"
	"github.com/stampede-bench/stampede/internal/output/prom"
	"github.com/stampede-bench/stampede/internal/output/promrw"
	"github.com/stampede-bench/stampede/internal/output/webdash"
	"github.com/stampede-bench/stampede/internal/result/finish"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/version"
)

// The registry names of the outputs the command line adds from its flags.
const (
	Requests      = "requests"       // the per-request CSV (--csv FILE; ARG "": in the result directory)
	Series        = "series"         // series.jsonl
	Report        = "report"         // report.html
	SummaryExport = "summary-export" // --summary-export FILE
	Prometheus    = "prometheus"     // --prometheus ADDR
)

// Factories are stampede's outputs: the ones --out names, in the order
// help lists them (influxdb=URL, prometheus-rw=URL (alias
// experimental-prometheus-rw), json=FILE, csv=FILE), then the ones made
// from flags.
func Factories() []output.Factory {
	return []output.Factory{
		influx.Factory(),
		promrw.Factory(),
		k6stream.Factory(k6stream.JSON),
		k6stream.Factory(k6stream.CSV),
		csvlog.Factory(),
		resultdir.SeriesFactory(),
		finish.ReportFactory("stampede " + version.String()),
		finish.SummaryExportFactory(),
		prom.Factory(),
		webdash.Factory("stampede " + version.String()),
	}
}

// New returns a registry of Factories.
func New() *output.Registry {
	r, err := output.NewRegistry(Factories()...)
	if err != nil {
		panic(err) // the built-in names are distinct: a programming error
	}
	return r
}
