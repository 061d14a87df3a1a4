package stampede

import (
	internalout "github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/reqlog"
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
// request):
//
//	Writer(scenario string) RequestWriter
//
// is called once for each VU as the VU is made, concurrently for several
// VUs (make it safe for concurrent use), after Start. The writer's Write
// is called on the VU's goroutine right after each request is recorded —
// the recording path: it must not block and must not keep r.HTTP after it
// returns; one writer is never called concurrently. The writer's Close is
// called once when the VU ends, before the output's Stop. When no output
// of a run is an OutputRequestLogger (and the run writes no request CSV),
// the engine gets no request log and the recording path costs what it
// costs without outputs.
type OutputRequestLogger = internalout.RequestLogger

// RequestRecord is one request as an OutputRequestLogger receives it (a
// line of the per-request CSV). Fields:
//
//	Time         time.Time     // when the response arrived (wall clock)
//	Query        string        // the label given to Iteration.RecordRequest (built-in families: the statement as sent)
//	ResponseTime time.Duration // measured by stampede, from the intended start under arrival-rate executors
//	Latency      time.Duration // reported by the server; negative when unknown
//	OK           bool          // false when the request failed
//	Rows         int64         // Outcome.Rows
//	Err          string        // the error message; "" when OK
//
// Op, Answer, HasAnswer and HTTP (k6's timings of an HTTP request, valid
// only during Write) are filled by the built-in families.
type RequestRecord = reqlog.Record

// RequestWriter receives the request records of one VU (see
// OutputRequestLogger):
//
//	Write(r RequestRecord) // for each request, on the VU's goroutine; must not block
//	Close() error          // once, when the VU ends
type RequestWriter = reqlog.Writer

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
