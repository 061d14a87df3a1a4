package stampede

import (
	"fmt"

	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/outputs"
)

// Catalog is the set of workload families a program offers, in display
// order, and the outputs of its own that --out can name besides
// stampede's (AddOutput); the first family's default scenarios make a bare
// `stampede run`. A program builds it explicitly (there is no
// registration at init time): NewCatalog() or families.Builtins(), then
// Add and AddOutput. The zero value is an empty catalog.
type Catalog struct {
	// families make the catalog's families; built-in families are made
	// fresh for every command, since their options live in them.
	families []func() Family
	// outputs are the program's own output factories, in the order added.
	outputs []OutputFactory
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

// AddFunc appends the family newFamily makes to the catalog and returns
// the catalog: a new one for every command (a command line's flags set a
// family's options, so each command gets its own; families.Builtins adds
// stampede's own families this way).
func (c *Catalog) AddFunc(newFamily func() Family) *Catalog {
	c.families = append(c.families, newFamily)
	return c
}

// Add appends family f to the catalog and returns the catalog. A scenario
// name offered by two families is found in the first.
func (c *Catalog) Add(f Family) *Catalog {
	c.families = append(c.families, func() Family { return f })
	return c
}

// Families returns the catalog's families in order, made anew for one
// command (see AddFunc).
func (c *Catalog) Families() []Family {
	fams := make([]Family, len(c.families))
	for i, f := range c.families {
		fams[i] = f()
	}
	return fams
}

// AddOutput makes the output f makes available to the command line Main
// runs: `--out NAME=ARG` (NAME being f.Name or one of f.Aliases) starts
// one output made by f.New for each run, after f.Check accepted ARG before
// anything ran. The name must be new (not one of stampede's own outputs
// such as influxdb or json, nor "dir"), lower-case letters, digits and
// dashes; otherwise AddOutput returns an error and changes nothing.
func (c *Catalog) AddOutput(f OutputFactory) error {
	for _, n := range append([]string{f.Name}, f.Aliases...) {
		if n == "dir" {
			return fmt.Errorf("output name %q: reserved for --out dir=DIR", n)
		}
	}
	if _, err := c.outputRegistry(f); err != nil {
		return err
	}
	c.outputs = append(c.outputs, f)
	return nil
}

// Outputs returns a registry of stampede's own outputs and the ones the
// program added with AddOutput, for Deps.Outputs when a program runs a
// Plan with Execute.
func (c *Catalog) Outputs() *OutputRegistry {
	r, err := c.outputRegistry()
	if err != nil {
		panic(err) // AddOutput accepted every factory against the same registry
	}
	return r
}

// outputRegistry is stampede's own outputs, the catalog's and more.
func (c *Catalog) outputRegistry(more ...OutputFactory) (*output.Registry, error) {
	r := outputs.New()
	for _, f := range append(append([]OutputFactory(nil), c.outputs...), more...) {
		if err := r.Add(f); err != nil {
			return nil, err
		}
	}
	return r, nil
}
