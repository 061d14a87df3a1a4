package stampede

import (
	"context"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Family is a group of scenarios sharing a target kind and its setup: it
// names its scenarios (Scenarios) and opens the named scenarios against
// env.Target or its embedded default (Open). A family with options keeps
// them in a typed Options value with a Validate method and may implement
// FlagBinder to offer them as run flags. Family values are used as map
// keys: implement them on pointers.
type Family = workload.Family

// FlagBinder is implemented by families whose options are run flags: the
// command line calls BindFlags with the run command's flag set, and the
// values parsed into it become the family's options. A flag name bound by
// two families of one catalog is an error, unless every family binding it
// lists it in SharedFlags (FlagSharer).
type FlagBinder = workload.FlagBinder

// FlagSharer declares flags a family shares with other families: one flag
// then sets the option of each.
type FlagSharer = workload.FlagSharer

// ScenarioInfo describes one scenario of a family: its name in
// family.Scenario form, a one-line description and whether a bare
// `stampede run` runs it.
type ScenarioInfo = workload.Info

// Env is what a family gets when it is opened: the target URL, the driver
// registry, the data directory, the metrics registry, the seed, the
// operation timeout and where to log preparation messages.
type Env = workload.Env

// Opened is a family ready to run: one Runnable per scenario name, a
// description of the target without credentials, notes for the summary
// and a Close function.
type Opened = workload.Opened

// Runnable is a scenario as the engine runs it; AsRunnable makes one from
// a Scenario, for the Scenarios of an Opened.
type Runnable = engine.Scenario

// AsRunnable returns s as the engine runs it.
func AsRunnable(s Scenario) Runnable { return engineScenario{s} }

// Usagef returns an error for bad input (options, target URL): the command
// line reports it in one line and exits with code 2.
func Usagef(format string, args ...any) error { return usage.Errorf(format, args...) }

// ScenarioDef is one scenario of a family made with NewFamily.
type ScenarioDef struct {
	// Name in family.Scenario form, e.g. "echo.RoundTrip"; unique in the
	// catalog.
	Name string
	// Description is one line for `stampede scenarios`.
	Description string
	// Default puts the scenario in a bare `stampede run` when its family
	// is the first of the catalog.
	Default bool
	// Scenario makes the VUs.
	Scenario Scenario
}

// NewFamily returns a family named name whose scenarios are ready to run
// as defined: opening them prepares nothing and ignores --target, and the
// summary names the family as the target. A scenario that prepares
// something does it in its Setup and Teardown methods.
func NewFamily(name string, scenarios ...ScenarioDef) Family {
	return &simpleFamily{name: name, defs: scenarios}
}

type simpleFamily struct {
	name string
	defs []ScenarioDef
}

func (f *simpleFamily) Name() string { return f.name }

func (f *simpleFamily) Scenarios() []ScenarioInfo {
	out := make([]ScenarioInfo, len(f.defs))
	for i, d := range f.defs {
		out[i] = ScenarioInfo{Name: d.Name, Description: d.Description, Default: d.Default}
	}
	return out
}

func (f *simpleFamily) Open(_ context.Context, env *Env, names []string) (*Opened, error) {
	o := &Opened{Scenarios: map[string]engine.Scenario{}, Target: f.name + " (scenarios defined in Go)"}
	if env.Target != "" {
		o.Target = driver.Redact(env.Target)
	}
	for _, n := range names {
		for _, d := range f.defs {
			if d.Name == n {
				if d.Scenario == nil {
					return nil, Usagef("scenario %s of family %s has no implementation", n, f.name)
				}
				o.Scenarios[n] = AsRunnable(d.Scenario)
			}
		}
	}
	return o, nil
}
