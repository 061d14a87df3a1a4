package workload

import (
	"context"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// Preflighter is implemented by families that can check a plan before
// anything expensive or visible happens: the kind of target, a connect +
// authentication round trip, that a data directory holds data. The run
// command calls Preflight before it generates or loads data and before it
// creates the result directory; Open is still responsible for the same
// checks (Preflight may be skipped). env.Metrics is a scratch registry.
// Bad input returns a usage error (package usage).
type Preflighter interface {
	Preflight(ctx context.Context, env *Env, names []string) error
}

// MetricLister is implemented by families that know, before Open, every
// metric the named scenarios register: thresholds on other metrics are
// then refused before any data is generated.
type MetricLister interface {
	MetricDefs(names []string) []metrics.Def
}
