package family

import (
	"context"

	"github.com/stampede-bench/stampede/vu"
)

// Family is a group of scenarios sharing a target kind and its setup
// (graph/LDBC, kafka, http, builtin, a Go program's own). A family is
// built from typed options (each built-in family has an Options struct,
// DefaultOptions and Options.Validate); families whose options can also
// be run flags implement flags.Binder. Each command line invocation builds
// fresh Family values. Implement Family on a pointer: families are map
// keys.
type Family interface {
	// Name is a short identifier, e.g. "graph", "kafka", "echo" (by
	// convention the prefix of its scenario names); messages name the
	// family by it.
	Name() string
	// Scenarios lists what the family offers, in display order
	// (`stampede scenarios`). Called often: return a fixed list.
	Scenarios() []ScenarioInfo
	// Open prepares the target for the named scenarios (all of them this
	// family's, at least one) and returns them ready to run. env.Target
	// is the --target URL; empty means the family's embedded default
	// (start it here, stop it in Opened.Close). Called once per run,
	// before anything is measured; ctx ends on Ctrl+C. Bad input (an
	// option, a URL, an unreachable target) is a usage error
	// (stampede.Usagef: one line, exit code 2, nothing measured); any
	// other error fails the run as "prepare NAME: ERROR".
	Open(ctx context.Context, env *Env, names []string) (*Opened, error)
}

// FlagChecker is implemented by families whose flags can be wrong in a way
// that changes their scenario list (an unreadable custom scenario file):
// the run command asks before it resolves scenario names, so the user sees
// the real problem instead of "unknown scenario".
type FlagChecker interface {
	CheckFlags() error
}

// Opened is a family ready to run: what Family.Open returns.
type Opened struct {
	// Scenarios holds one scenario per name given to Open
	// (stampede.AsRunnable makes one from a stampede.Scenario).
	Scenarios map[string]vu.Scenario
	// Target describes what is being measured, without credentials.
	Target string
	// TargetVersion is the server's version when it can be asked ("":
	// unknown).
	TargetVersion string
	// Notes are shown in the summary (e.g. "in-memory test cluster"),
	// under every scenario of the family (once for the run when all its
	// scenarios carry them). Say here what a stand-in does not model.
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
