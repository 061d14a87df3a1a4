package stampede

import (
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/run"
)

// Output is a live output of a run, as in k6: Start before the first
// second, Observe once for every finished second of every scenario (on the
// aggregator's goroutine: return quickly, keep nothing of the point), Stop
// once after the last. Optional abilities are separate interfaces:
// OutputAnnotator adds notes to the snapshot after Stop. See
// docs/outputs.md.
type Output = output.Output

// OutputAnnotator is an Output that adds what it learned to the snapshot
// after Stop (AddNote avoids duplicates).
type OutputAnnotator = output.Annotator

// OutputFactory makes one kind of output: Name is what --out NAME=ARG
// names, Check validates ARG without side effects, New makes the output
// without starting it.
type OutputFactory = output.Factory

// OutputParams are what an output is made from: ARG, the run's metrics
// registry, scenarios and tags.
type OutputParams = output.Params

// OutputRegistry maps output names to factories; set Deps.Outputs to use
// one of your own.
type OutputRegistry = output.Registry

// OutputSpec names one output of a Plan: Kind is the registry name, Arg
// what --out KIND=ARG would give.
type OutputSpec = run.OutputSpec

// Point is one second of one scenario, as outputs observe it (counts,
// VUs, responseTime statistics in µs).
type Point = metrics.Point

// Snapshot holds every scenario's merged measurements of a run.
type Snapshot = metrics.Snapshot

// Outputs returns a registry of stampede's own outputs (influxdb,
// prometheus-rw, json, csv), to which a program may Add its own.
func Outputs() *OutputRegistry { return outputs.New() }

// AddNote appends note to notes unless it is already there.
func AddNote(notes []string, note string) []string { return output.AddNote(notes, note) }
