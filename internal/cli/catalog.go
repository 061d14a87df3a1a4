package cli

import (
	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/builtin"
	"github.com/stampede-bench/stampede/internal/workload/httpload"
	"github.com/stampede-bench/stampede/internal/workload/mq"
)

// newCatalog returns fresh workload families for one invocation; their
// flag values live in them. The first family's defaults make a bare
// `stampede run`.
func newCatalog() *workload.Catalog {
	return workload.NewCatalog(
		httpload.New(),
		builtin.New(),
		mq.New(),
	)
}

// newDrivers returns the driver registry, one opener per URL scheme.
func newDrivers() *driver.Registry {
	r := driver.NewRegistry()
	httpdrv.Register(r)
	kafkadrv.Register(r)
	return r
}
