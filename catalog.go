package stampede

import (
	"github.com/stampede-bench/stampede/internal/plugins"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Catalog is the set of workload families a program offers, in display
// order; the first family's default scenarios make a bare `stampede run`.
// A program builds it explicitly (there is no registration at init time):
// Builtins() or NewCatalog(), then Add. The zero value is an empty catalog.
type Catalog struct {
	// families make the catalog's families; built-in families are made
	// fresh for every command, since their options live in them.
	families []func() Family
}

// NewCatalog returns a catalog of the given families only (without the
// built-in ones).
func NewCatalog(families ...Family) *Catalog {
	c := &Catalog{}
	for _, f := range families {
		c.Add(f)
	}
	return c
}

// Builtins returns a catalog of stampede's own families: graph/LDBC
// (go.Go1Step, find_path.FindShortestPath, ...), http, builtin (Noop,
// Sleep), kafka and nats.
func Builtins() *Catalog {
	return &Catalog{families: plugins.Constructors()}
}

// Add appends family f to the catalog and returns the catalog. A scenario
// name offered by two families is found in the first.
func (c *Catalog) Add(f Family) *Catalog {
	c.families = append(c.families, func() Family { return f })
	return c
}

// Families returns the catalog's families in order.
func (c *Catalog) Families() []Family {
	return c.workload().Families()
}

// workload makes the catalog's families for one command.
func (c *Catalog) workload() *workload.Catalog {
	fams := make([]Family, len(c.families))
	for i, f := range c.families {
		fams[i] = f()
	}
	return workload.NewCatalog(fams...)
}
