// Package graph is the graph/LDBC family (go.Go1Step,
// find_path.FindShortestPath, ...): LDBC social-network queries on SQLite
// (embedded, the default), PostgreSQL or NebulaGraph.
//
// Build it from typed options without any flag library: start from
// DefaultOptions, change fields (each documents its unit, default and run
// flag), Validate, then name New(opts) in a stampede.Plan or a
// stampede.NewCatalog. A program that imports this package links this
// family and its drivers only. The family binds its run flags when a
// command line (cmdline.Main) is built around it; its options are the
// flags' defaults.
package graph

import (
	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/families/graph/graphopt"
	family "github.com/stampede-bench/stampede/internal/workload/graph"
)

// Options are the graph/LDBC family's options (go.Go1Step,
// find_path.FindShortestPath, ...). Fields (default; run flag):
//
//	Data          string   // the LDBC data set directory ("": DATA_DIR/ldbc-sfSF, generated when missing; --data)
//	SF            float64  // scale factor of a generated data set (0.1; --sf)
//	BatchSize     int      // persons or edges per insert statement (100; --batch-size)
//	ParamOrder    string   // "roundrobin" (the default, shared by the VUs) or "random" (seeded; --param-order)
//	CheckSample   int      // check every Nth iteration of each VU against the reference, 0: none (100; --check-sample)
//	MaxDepth      int      // most hops of find_path.FindShortestPath, 1 to 12 (6; --max-depth)
//	ScenarioFiles []string // YAML files of custom graph scenarios (--scenario-file; docs/graph.md)
//	DateFormat    string   // "iso", "millis" or "auto" (either, per value) ("auto"; --date-format)
//	MaxRejected   string   // rows the embedded load may reject: a count or "0.1%" ("0"; --max-rejected)
type Options = graphopt.Options

// DefaultOptions returns the graph family's defaults.
func DefaultOptions() Options { return graphopt.DefaultOptions() }

// New returns the graph family with options o.
func New(o Options) stampede.Family { return family.New(o) }
