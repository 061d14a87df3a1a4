// Package graphopt holds the graph/LDBC family's options: the typed
// settings that package families/graph names as graph.Options.
package graphopt

import (
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

// Defaults of the family's flags.
const (
	DefaultSF          = 0.1
	DefaultBatchSize   = 100
	DefaultCheckSample = 100
	// DefaultMaxDepth bounds shortest paths: 6 hops covers every pair of
	// the generated LDBC graphs' large component (their diameter is lower)
	// and keeps the query's worst case (unconnected pairs) bounded.
	DefaultMaxDepth = 6
	// MaxMaxDepth bounds --max-depth: the SQL grows with it.
	MaxMaxDepth = 12
)

// Parameter orders (--param-order).
const (
	OrderRoundRobin = "roundrobin"
	OrderRandom     = "random"
)

// Options are the graph family's settings. The flag of each is named in
// its comment.
type Options struct {
	// Data is the LDBC data set directory (default "": DATA_DIR/ldbc-sfSF,
	// generated when missing; --data).
	Data string
	// SF is the scale factor of the default data set when it is generated
	// (default DefaultSF, 0.1; --sf).
	SF float64
	// BatchSize is the persons (edges) per statement of
	// insert.InsertPersonScenario (insert.BatchInsertEdgeScenario)
	// (default DefaultBatchSize, 100; ≥ 1; --batch-size).
	BatchSize int
	// ParamOrder is the order of substitution parameters: OrderRoundRobin
	// (default; shared by the VUs) or OrderRandom (seeded by the run's seed
	// and the VU) (--param-order).
	ParamOrder string
	// CheckSample verifies every Nth iteration of each VU, the first
	// included, against the in-memory reference; 0 disables (default
	// DefaultCheckSample, 100; --check-sample).
	CheckSample int
	// MaxDepth is the most hops find_path.FindShortestPath looks for
	// (default DefaultMaxDepth, 6; 1 to 12; --max-depth).
	MaxDepth int
	// ScenarioFiles are YAML files of custom graph scenarios (default none;
	// --scenario-file, repeatable; see docs/graph.md).
	ScenarioFiles []string
	// DateFormat is how the data set's dates are written: "iso", "millis"
	// (epoch milliseconds) or "auto" (default; either, per value)
	// (--date-format).
	DateFormat string
	// MaxRejected is how many rows of the data set the embedded target's
	// load may reject: a number, or a percentage such as "0.1%" (default
	// "0"; --max-rejected).
	MaxRejected string
}

// DefaultOptions returns the defaults of a bare `stampede run`.
func DefaultOptions() Options {
	return Options{SF: DefaultSF, BatchSize: DefaultBatchSize, ParamOrder: OrderRoundRobin, CheckSample: DefaultCheckSample,
		MaxDepth: DefaultMaxDepth, DateFormat: "auto", MaxRejected: "0"}
}

// Validate returns the first problem of o as a usage error. Custom
// scenario files are read and checked when the family lists its scenarios.
func (o *Options) Validate() error {
	if err := o.checkRanges(); err != nil {
		return err
	}
	if _, err := datagen.PersonsForSF(o.SF); err != nil {
		return usage.Errorf("--sf: %v", err)
	}
	if _, err := ldbcfile.ParseDateFormat(o.DateFormat); err != nil {
		return usage.Errorf("--date-format: %v", err)
	}
	if _, err := loader.ParseLimit(o.MaxRejected); err != nil {
		return usage.Errorf("%v", err)
	}
	return nil
}

// checkRanges checks the numeric and enumerated options.
func (o *Options) checkRanges() error {
	switch {
	case o.BatchSize < 1:
		return usage.Errorf("--batch-size %d must be at least 1", o.BatchSize)
	case o.ParamOrder != OrderRoundRobin && o.ParamOrder != OrderRandom:
		return usage.Errorf("--param-order %q: want %s or %s", o.ParamOrder, OrderRoundRobin, OrderRandom)
	case o.CheckSample < 0:
		return usage.Errorf("--check-sample %d must not be negative", o.CheckSample)
	case o.MaxDepth < 1 || o.MaxDepth > MaxMaxDepth:
		return usage.Errorf("--max-depth %d: want 1 to %d", o.MaxDepth, MaxMaxDepth)
	}
	return nil
}
