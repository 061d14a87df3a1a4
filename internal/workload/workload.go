// Package workload is the plug-in point for what stampede runs: a Family
// (graph/LDBC, kafka, http, builtin) names its scenarios, adds its own run
// flags, and opens them against a target — or against its embedded default
// when no target is given. The engine never sees families, only
// engine.Scenario values.
package workload

import (
	"context"
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/family"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/usage"
)

// Info describes one scenario (family.ScenarioInfo).
type Info = family.ScenarioInfo

// Family is a group of scenarios sharing a target kind and its setup.
// A family is built from its typed options (each family package has an
// Options struct, DefaultOptions and Options.Validate); families whose
// options can also come from command-line flags implement FlagBinder.
// Each CLI invocation builds fresh Family values. Implementations are
// pointers (families are map keys).
type Family interface {
	// Name is a short identifier ("graph", "kafka", "http", "builtin").
	Name() string
	// Scenarios lists what the family offers, in display order.
	Scenarios() []Info
	// Open prepares the target for the named scenarios (all from this
	// family), starting or loading the embedded default when env.Target is
	// empty, and returns one engine.Scenario per name. Bad input (options,
	// target URL, unreachable target) returns a usage error (package usage).
	Open(ctx context.Context, env *Env, names []string) (*Opened, error)
}

// FlagChecker is implemented by families whose flags can be wrong in a way
// that changes their scenario list (an unreadable custom scenario file):
// the run command asks before it resolves scenario names, so the user sees
// the real problem instead of "unknown scenario".
type FlagChecker interface {
	CheckFlags() error
}

// Opened is a family ready to run.
type Opened struct {
	Scenarios map[string]engine.Scenario
	// Target describes what is being measured, without credentials.
	Target string
	// TargetVersion is the server's version when the driver can ask.
	TargetVersion string
	// Notes are shown in the summary (e.g. "in-memory test cluster"),
	// under every scenario of the family (once for the run when all its
	// scenarios carry them).
	Notes []string
	// ScenarioNotes are notes that concern one scenario only (the
	// parameters of insert.InsertPersonScenario), by scenario name.
	ScenarioNotes map[string][]string
	// InProcess is set when the target runs inside stampede's own process
	// (SQLite, the embedded Kafka cluster): generator and target then share
	// one CPU budget, which the saturation checks must know.
	InProcess bool
	// StandIn is set when the target is a test stand-in that does not
	// model a real cluster (kfake: no replication, ISR, leader election or
	// network), whose Notes say so: its scaling cannot be measured.
	StandIn bool
	// Close releases the target (embedded servers, pools). May be nil.
	Close func() error
}

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
