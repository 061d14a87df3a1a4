// Package ldbc is the graph workload family ("graph"): nebula-bench's
// scenarios (go.Go1Step/Go2Step/Go3Step, find_path.FindShortestPath,
// insert.InsertPersonScenario, fetch.FetchTag) over an LDBC SNB social
// network, plus custom scenarios from YAML files. With no --target it
// generates the data set (package datagen) and loads it (package loader)
// into an embedded SQLite file under the data directory, both reused by
// later runs. Answers of sampled iterations are verified against an
// in-memory computation over the same CSV files. See docs/graph.md.
package ldbc

import (
	"strconv"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/ldbc/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/ldbc/loader"
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
	DefaultSF          = 0.1
	DefaultBatchSize   = 100
	DefaultCheckSample = 100
	// DefaultMaxDepth bounds shortest paths: 6 hops covers every pair of
	// the generated LDBC graphs' large component (their diameter is lower)
	// and keeps the query's worst case (unconnected pairs) bounded.
	DefaultMaxDepth = 6
	// maxMaxDepth bounds --max-depth: the SQL grows with it.
	maxMaxDepth = 12
	// DataSeed is the generator seed of the default data set, as the
	// default of `stampede gen ldbc --seed`.
	DataSeed = 42
)

// Family is the graph workload family. Build one per CLI invocation with
// New; flag values live in it.
type Family struct {
	data          string
	sf            float64
	batch         int
	order         string
	checkSample   int
	maxDepth      int
	scenarioFiles []string
	dateFormat    string
	maxRejected   string
	dates         ldbcfile.DateFormat // parsed dateFormat
	limit         loader.Limit        // parsed maxRejected

	customParsed bool
	custom       []customSpec
	customErr    error
}

var _ workload.Family = (*Family)(nil)

// New returns the family with default options.
func New() *Family {
	return &Family{sf: DefaultSF, batch: DefaultBatchSize, order: OrderRoundRobin, checkSample: DefaultCheckSample, maxDepth: DefaultMaxDepth,
		dateFormat: "auto", maxRejected: "0"}
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
	if len(f.scenarioFiles) > 0 && !f.customParsed {
		f.customParsed = true
		f.custom, f.customErr = parseCustomFiles(f.scenarioFiles, out)
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

// AddFlags registers the graph options.
func (f *Family) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&f.data, "data", "", "LDBC data set directory (default DATA_DIR/ldbc-sfSF, generated when missing)")
	fs.Float64Var(&f.sf, "sf", DefaultSF, "scale factor of the default data set when it is generated")
	fs.IntVar(&f.batch, "batch-size", DefaultBatchSize, "persons (edges) per statement of insert.InsertPersonScenario (insert.BatchInsertEdgeScenario)")
	fs.StringVar(&f.order, "param-order", OrderRoundRobin, "order of substitution parameters: roundrobin (shared by the VUs) or random (seeded by --seed and the VU)")
	fs.IntVar(&f.checkSample, "check-sample", DefaultCheckSample, "verify every Nth iteration of each VU (the first included) against the in-memory reference; 0 disables")
	fs.IntVar(&f.maxDepth, "max-depth", DefaultMaxDepth, "most hops find_path.FindShortestPath looks for (1-"+strconv.Itoa(maxMaxDepth)+")")
	fs.StringArrayVar(&f.scenarioFiles, "scenario-file", nil, "YAML file of custom graph scenarios (repeatable; see docs/graph.md)")
	fs.StringVar(&f.dateFormat, "date-format", "auto", "dates of the LDBC data set: iso, millis (epoch milliseconds, LDBC's LongDateFormatter) or auto (either, per value)")
	fs.StringVar(&f.maxRejected, "max-rejected", "0", "rows of the data set the embedded target's load may reject (a number, or a percentage such as 0.1%); see stampede load")
}
