// Package graph is the graph workload family ("graph"): nebula-bench's
// scenarios (go.Go1Step/Go2Step/Go3Step, find_path.FindShortestPath,
// insert.InsertPersonScenario, fetch.FetchTag) over an LDBC SNB social
// network, plus custom scenarios from YAML files. With no --target it
// generates the data set (package datagen) and loads it (package loader)
// into an embedded SQLite file under the data directory, both reused by
// later runs. Answers of sampled iterations are verified against an
// in-memory computation over the same CSV files. See docs/graph.md.
package graph

import (
	"github.com/stampede-bench/stampede/families/graph/graphopt"
	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/postgres"
	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

// Scenario names.
const (
	Go1Step          = "go.Go1Step"
	Go2Step          = "go.Go2Step"
	Go3Step          = "go.Go3Step"
	FindShortestPath = "find_path.FindShortestPath"
	InsertPerson     = "insert.InsertPersonScenario"
	FetchTag         = "fetch.FetchTag"
)

// Defaults of the family's flags.
const (
	DefaultSF          = graphopt.DefaultSF
	DefaultBatchSize   = graphopt.DefaultBatchSize
	DefaultCheckSample = graphopt.DefaultCheckSample
	// DefaultMaxDepth bounds shortest paths (graphopt.DefaultMaxDepth).
	DefaultMaxDepth = graphopt.DefaultMaxDepth
	// maxMaxDepth bounds --max-depth: the SQL grows with it.
	maxMaxDepth = graphopt.MaxMaxDepth
	// DataSeed is the generator seed of the default data set, as the
	// default of `stampede gen ldbc --seed`.
	DataSeed = 42
)

// Family is the graph workload family. Build one per CLI invocation with
// New.
type Family struct {
	opts  Options
	dates ldbcfile.DateFormat // parsed opts.DateFormat
	limit loader.Limit        // parsed opts.MaxRejected

	customParsed bool
	custom       []customSpec
	customErr    error

	// drivers open the family's targets: SQLite (the embedded default),
	// PostgreSQL and NebulaGraph.
	drivers *driver.Registry
}

var (
	_ workload.Family     = (*Family)(nil)
	_ workload.FlagBinder = (*Family)(nil)
)

// New returns the family with options opts (see DefaultOptions).
func New(opts Options) *Family {
	r := driver.NewRegistry()
	sqlite.Register(r)
	postgres.Register(r)
	nebula.Register(r)
	return &Family{opts: opts, drivers: r}
}

// Name is "graph".
func (f *Family) Name() string { return "graph" }

func builtinInfos() []workload.Info {
	return append([]workload.Info{
		{Name: Go1Step, Description: "distinct persons at the end of 1-step KNOWS walks from a person", Default: true},
		{Name: Go2Step, Description: "distinct persons at the end of 2-step KNOWS walks from a person", Default: true},
		{Name: Go3Step, Description: "distinct persons at the end of 3-step KNOWS walks from a person", Default: true},
		{Name: FindShortestPath, Description: "length of a shortest KNOWS path between two persons (-1: none within --max-depth)", Default: true},
		{Name: InsertPerson, Description: "insert a batch of --batch-size new persons", Default: true},
		{Name: FetchTag, Description: "a person's properties by id"},
	}, allBenchInfos()...)
}

// Scenarios lists the built-in scenarios, then those of --scenario-file
// (read once, after the flags are parsed; a broken file is reported by
// Open).
func (f *Family) Scenarios() []workload.Info {
	out := append(builtinInfos(), interactiveInfos()...)
	if len(f.opts.ScenarioFiles) > 0 && !f.customParsed {
		f.customParsed = true
		f.custom, f.customErr = parseCustomFiles(f.opts.ScenarioFiles, out)
	}
	for _, c := range f.custom {
		out = append(out, workload.Info{Name: c.Name, Description: c.Description, Default: c.Default})
	}
	return out
}

// CheckFlags implements workload.FlagChecker: custom scenario files must
// parse before their scenario names can be resolved.
func (f *Family) CheckFlags() error {
	f.Scenarios()
	if f.customErr != nil {
		return usage.Errorf("%v", f.customErr)
	}
	return nil
}
