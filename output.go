package stampede

import (
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/metric"
	"github.com/stampede-bench/stampede/output"
)

// Output is a live output of a run, as in k6 (what --out NAME=ARG names
// besides a result directory): Description, Start, Observe(p *Point) once
// per finished second of every scenario, Stop; see package output for the
// contract. Optional abilities, found by type assertion:
// OutputRequestLogger receives every request record; OutputAnnotator adds
// notes to the snapshot after Stop. See docs/extending.md and
// docs/outputs.md.
type Output = output.Output

// OutputAnnotator is an Output that adds what it learned to the summary
// (Annotate(snap *Snapshot), once after Stop); see package output.
type OutputAnnotator = output.Annotator

// OutputRequestLogger is an Output that also receives every request
// record of the run, through one RequestWriter per VU (no lock per
// request); see output.RequestLogger for when each method is called and
// what it must not do.
type OutputRequestLogger = output.RequestLogger

// RequestRecord is one request as an OutputRequestLogger receives it (a
// line of the per-request CSV); see output.RequestRecord.
type RequestRecord = output.RequestRecord

// RequestWriter receives the request records of one VU; see
// output.RequestWriter.
type RequestWriter = output.RequestWriter

// OutputFactory makes one kind of output; Catalog.AddOutput makes it
// available to --out, OutputRegistry.Add to Deps.Outputs. See
// output.Factory for its fields; a Check error is reported as
// "--out NAME: ERROR", exit code 2.
type OutputFactory = output.Factory

// OutputParams are what OutputFactory.New gets: see output.Params.
type OutputParams = output.Params

// OutputRegistry maps output names to factories (see output.Registry).
// Outputs() and Catalog.Outputs() make one; set Deps.Outputs to it when
// you run a Plan with Execute.
type OutputRegistry = output.Registry

// OutputSpec names one output of a Plan, as --out KIND=ARG would; see
// output.Spec.
type OutputSpec = output.Spec

// Point is one second of one scenario, as Output.Observe gets it; see
// package metric for its fields.
type Point = metric.Point

// Snapshot is every scenario's merged measurements of a run (Result.Snapshot,
// OutputAnnotator.Annotate); see package metric.
type Snapshot = metric.Snapshot

// ScenarioSnapshot is the measurements of one scenario of a Snapshot; see
// package metric.
type ScenarioSnapshot = metric.ScenarioSnapshot

// Outputs returns a registry of stampede's own outputs (influxdb,
// prometheus-rw, json, csv), to which a program may Add its own.
func Outputs() *OutputRegistry { return outputs.New() }

// AddNote appends note to notes unless it is already there.
func AddNote(notes []string, note string) []string { return output.AddNote(notes, note) }
