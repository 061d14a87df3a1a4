// Package plugins lists the workload families and target drivers the
// stampede binary ships with. The command line and the public Go API build
// their catalogs and driver registries from here, so the list exists once.
package plugins

import (
	"github.com/stampede-bench/stampede/internal/analysis/merge"
	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/postgres"
	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/builtin"
	"github.com/stampede-bench/stampede/internal/workload/graph"
	"github.com/stampede-bench/stampede/internal/workload/http"
	"github.com/stampede-bench/stampede/internal/workload/kafka"
	"github.com/stampede-bench/stampede/internal/workload/nats"
)

// Families returns fresh built-in workload families with their default
// options, in display order: graph/LDBC (whose defaults make a bare
// `stampede run`), http, builtin, kafka, nats. Each call returns new
// values (their options live in them).
func Families() []workload.Family {
	var out []workload.Family
	for _, newFamily := range Constructors() {
		out = append(out, newFamily())
	}
	return out
}

// Constructors returns the constructors of the built-in families, in the
// order of Families.
func Constructors() []func() workload.Family {
	return []func() workload.Family{
		func() workload.Family { return graph.New(graph.DefaultOptions()) },
		func() workload.Family { return http.New(http.DefaultOptions()) },
		func() workload.Family { return builtin.New(builtin.DefaultOptions()) },
		func() workload.Family { return kafka.New(kafka.DefaultOptions()) },
		func() workload.Family { return nats.New(nats.DefaultOptions()) },
	}
}

// Drivers returns the driver registry, one opener per URL scheme: sqlite,
// postgres, http(s), nebula; kafka and nats targets are accepted, their
// families connect by themselves.
func Drivers() *driver.Registry {
	r := driver.NewRegistry()
	sqlite.Register(r)
	postgres.Register(r)
	httpdrv.Register(r)
	nebula.Register(r)
	r.Accept(kafkadrv.Scheme, natsdrv.Scheme)
	return r
}

// RateTrends are the per-second trends of the families of c
// (workload.RateTrender: the kafka family's msgs/s) that `stampede merge`
// rebuilds from the merged series, so that a merged rate is the sum over
// the processes.
func RateTrends(c *workload.Catalog) []merge.RateTrend {
	var out []merge.RateTrend
	for _, p := range c.RateTrends() {
		out = append(out, merge.RateTrend{Trend: p.Trend, Counter: p.Counter, Sparse: p.Sparse})
	}
	return out
}
