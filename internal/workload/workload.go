// Package workload is the plug-in point for what stampede runs: a Family
// (graph/LDBC, kafka, http, builtin) names its scenarios, adds its own run
// flags, and opens them against a target — or against its embedded default
// when no target is given. The engine never sees families, only
// vu.Scenario values.
package workload

import (
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/family"
	"github.com/stampede-bench/stampede/internal/usage"
)

// Info describes one scenario (family.ScenarioInfo).
type Info = family.ScenarioInfo

// Family, FlagChecker and Opened are package family's (public,
// documented there).
type (
	Family      = family.Family
	FlagChecker = family.FlagChecker
	Opened      = family.Opened
)

// Env is what families get from the run command (family.Env).
type Env = family.Env

// Catalog is the set of families of one CLI invocation.
type Catalog struct {
	families []Family
}

// NewCatalog returns a catalog of the given families.
func NewCatalog(families ...Family) *Catalog { return &Catalog{families: families} }

// Families returns the families in registration order.
func (c *Catalog) Families() []Family { return c.families }

// Find returns the family offering scenario name.
func (c *Catalog) Find(name string) (Family, Info, bool) {
	for _, f := range c.families {
		for _, s := range f.Scenarios() {
			if s.Name == name {
				return f, s, true
			}
		}
	}
	return nil, Info{}, false
}

// Defaults lists the scenarios of a bare `stampede run`.
func (c *Catalog) Defaults() []string {
	var out []string
	for _, f := range c.families {
		for _, s := range f.Scenarios() {
			if s.Default {
				out = append(out, s.Name)
			}
		}
	}
	return out
}

// Resolve checks scenario names and groups them by family, keeping the
// user's order within each family. Unknown names are a usage error that
// suggests close matches.
func (c *Catalog) Resolve(names []string) (map[Family][]string, error) {
	out := map[Family][]string{}
	for _, n := range names {
		f, _, ok := c.Find(n)
		if !ok {
			return nil, usage.Errorf("unknown scenario %q%s (see stampede scenarios)", n, c.suggest(n))
		}
		out[f] = append(out[f], n)
	}
	return out, nil
}

func (c *Catalog) suggest(name string) string {
	var close []string
	low := strings.ToLower(name)
	for _, f := range c.families {
		for _, s := range f.Scenarios() {
			sl := strings.ToLower(s.Name)
			if strings.Contains(sl, low) || strings.Contains(low, sl[strings.LastIndex(sl, ".")+1:]) {
				close = append(close, s.Name)
			}
		}
	}
	sort.Strings(close)
	if len(close) == 0 {
		return ""
	}
	if len(close) > 3 {
		close = close[:3]
	}
	return "; did you mean " + strings.Join(close, ", ") + "?"
}
