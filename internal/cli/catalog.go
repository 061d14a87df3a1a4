package cli

import (
	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/plugins"
	"github.com/stampede-bench/stampede/internal/workload"
)

// newCatalog returns fresh workload families for one invocation, with
// their default options; the run command binds their flags. The first
// family's defaults make a bare `stampede run`.
func newCatalog() *workload.Catalog {
	return workload.NewCatalog(plugins.Families()...)
}

// newDrivers returns the driver registry, one opener per URL scheme.
func newDrivers() *driver.Registry {
	return plugins.Drivers()
}
