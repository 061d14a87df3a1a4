package graph

import (
	"strconv"

	"github.com/stampede-bench/stampede/flags"
)

// BindFlags implements workload.FlagBinder: the graph options as run flags.
func (f *Family) BindFlags(fs flags.Set) {
	o := &f.opts
	fs.StringVar(&o.Data, "data", o.Data, "LDBC data set directory (default DATA_DIR/ldbc-sfSF, generated when missing)")
	fs.Float64Var(&o.SF, "sf", o.SF, "scale factor of the default data set when it is generated")
	fs.IntVar(&o.BatchSize, "batch-size", o.BatchSize, "persons (edges) per statement of insert.InsertPersonScenario (insert.BatchInsertEdgeScenario)")
	fs.StringVar(&o.ParamOrder, "param-order", o.ParamOrder, "order of substitution parameters: roundrobin (shared by the VUs) or random (seeded by --seed and the VU)")
	fs.IntVar(&o.CheckSample, "check-sample", o.CheckSample, "verify every Nth iteration of each VU (the first included) against the in-memory reference; 0 disables")
	fs.IntVar(&o.MaxDepth, "max-depth", o.MaxDepth, "most hops find_path.FindShortestPath looks for (1-"+strconv.Itoa(maxMaxDepth)+")")
	fs.StringArrayVar(&o.ScenarioFiles, "scenario-file", o.ScenarioFiles, "YAML file of custom graph scenarios (repeatable; see docs/graph.md)")
	fs.StringVar(&o.DateFormat, "date-format", o.DateFormat, "dates of the LDBC data set: iso, millis (epoch milliseconds, LDBC's LongDateFormatter) or auto (either, per value)")
	fs.StringVar(&o.MaxRejected, "max-rejected", o.MaxRejected, "rows of the data set the embedded target's load may reject (a number, or a percentage such as 0.1%); see stampede load")
}
