package stampede

import (
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/reqlog"
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

// OutputRequestLogger is an Output that also receives every request
// record of the run, through one RequestWriter per VU (no lock per
// request): its Writer(scenario) is called once for each VU as the VU is
// made, concurrently for several VUs, so it must be safe for concurrent
// use; the writer's Write is called on the VU's goroutine right after each
// request is recorded — the recording path: it must not block and must
// not keep r.Op or r.HTTP after it returns; the writer's Close is called
// once when the VU ends, before the output's Stop. When no output of a run
// is an OutputRequestLogger (and the run writes no request CSV), the
// engine gets no request log and the recording path costs what it costs
// without outputs.
type OutputRequestLogger = output.RequestLogger

// RequestRecord is one request as an OutputRequestLogger receives it (a
// line of the per-request CSV): Time the response arrived (wall clock),
// Query the label given to RecordRequest (or the statement as sent),
// ResponseTime measured by stampede, Latency reported by the server
// (negative when unknown), OK, Rows, Err (the error message, "" when OK),
// and for HTTP requests HTTP (k6's timings; valid only during Write).
type RequestRecord = reqlog.Record

// RequestWriter receives the request records of one VU: Write for each
// request on the VU's goroutine, Close once when the VU ends.
type RequestWriter = reqlog.Writer

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
