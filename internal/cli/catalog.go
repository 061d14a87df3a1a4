package cli

import (
	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/postgres"
	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/builtin"
	"github.com/stampede-bench/stampede/internal/workload/httpload"
	"github.com/stampede-bench/stampede/internal/workload/ldbc"
	"github.com/stampede-bench/stampede/internal/workload/mq"
	"github.com/stampede-bench/stampede/internal/workload/natsload"
)

// newCatalog returns fresh workload families for one invocation, with
// their default options; the run command binds their flags. The first
// family's defaults make a bare `stampede run`.
func newCatalog() *workload.Catalog {
	return workload.NewCatalog(
		ldbc.New(ldbc.DefaultOptions()),
		httpload.New(httpload.DefaultOptions()),
		builtin.New(builtin.DefaultOptions()),
		mq.New(mq.DefaultOptions()),
		natsload.New(natsload.DefaultOptions()),
	)
}

// newDrivers returns the driver registry, one opener per URL scheme.
func newDrivers() *driver.Registry {
	r := driver.NewRegistry()
	sqlite.Register(r)
	postgres.Register(r)
	httpdrv.Register(r)
	kafkadrv.Register(r)
	nebula.Register(r)
	natsdrv.Register(r)
	return r
}
