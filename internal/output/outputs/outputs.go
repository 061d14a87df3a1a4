// Package outputs builds the registry of stampede's own outputs: what
// --out NAME=ARG accepts, plus the Prometheus endpoint of --prometheus.
// A program that adds an output of its own builds this registry and calls
// Add on it; there is no global registry.
package outputs

import (
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/influx"
	"github.com/stampede-bench/stampede/internal/output/k6stream"
	"github.com/stampede-bench/stampede/internal/output/prom"
	"github.com/stampede-bench/stampede/internal/output/promrw"
)

// Factories are the outputs --out names, in the order help lists them:
// influxdb=URL, prometheus-rw=URL (alias experimental-prometheus-rw),
// json=FILE, csv=FILE.
func Factories() []output.Factory {
	return []output.Factory{
		influx.Factory(),
		promrw.Factory(),
		k6stream.Factory(k6stream.JSON),
		k6stream.Factory(k6stream.CSV),
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

// Prometheus is the factory of the --prometheus endpoint (ARG = listen
// address). It is not an --out name.
func Prometheus() output.Factory { return prom.Factory() }
