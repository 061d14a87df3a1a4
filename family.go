package stampede

import (
	"context"

	"github.com/stampede-bench/stampede/family"
	"github.com/stampede-bench/stampede/flags"
	"github.com/stampede-bench/stampede/internal/redact"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/vu"
)

// Family is a group of scenarios sharing a target kind and its setup
// (see family.Family for its three methods). NewFamily makes one for
// scenarios that prepare nothing; a family that prepares a target (a
// connection pool, data, an embedded server) implements Name, Scenarios
// and Open itself. Options live in the family value, in a typed Options
// struct with defaults and a Validate method; a family may implement
// FlagBinder (and FlagSharer) to offer them as run flags. Implement
// Family on a pointer: families are map keys. See Example_family.
type Family = family.Family

// FlagBinder is implemented by families whose options are run flags;
// see package flags.
type FlagBinder = flags.Binder

// FlagSharer is implemented by FlagBinder families that share some flags
// with other families; see package flags.
type FlagSharer = flags.Sharer

// ScenarioInfo describes one scenario of a family, as Family.Scenarios
// lists it; see package family.
type ScenarioInfo = family.ScenarioInfo

// Env is what a family's Open gets from the run: the target, the run's
// settings and its metrics registry (see family.Env for the fields). A
// family registers metrics of its own with NewCounter, NewTrend and
// NewCheck (Example_customMetric) and opens its targets itself.
type Env = family.Env

// Opened is what Family.Open returns: the opened scenarios (Runnable
// values, AsRunnable(yourScenario)) and what the summary says about the
// target; see family.Opened for its fields.
type Opened = family.Opened

// Runnable is a scenario as the engine runs it, for Opened.Scenarios
// (see package vu: a scenario may implement vu.VU's contract directly);
// AsRunnable makes one from a Scenario (with its optional Setup,
// Started, Teardown and Notes).
type Runnable = vu.Scenario

// AsRunnable returns s as the engine runs it.
func AsRunnable(s Scenario) Runnable { return engineScenario{s} }

// Usagef returns an error for bad input (options, target URL): the command
// line reports it in one line and exits with code 2.
func Usagef(format string, args ...any) error { return usage.Errorf(format, args...) }

// IsUsage tells that err is bad input (Usagef, or Execute refusing a plan
// before anything ran): the command line exits with code 2 on it.
func IsUsage(err error) bool { return usage.Is(err) }

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
	o := &Opened{Scenarios: map[string]vu.Scenario{}, Target: f.name + " (scenarios defined in Go)"}
	if env.Target != "" {
		o.Target = redact.URL(env.Target)
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
