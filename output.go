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
// available to --out, OutputRegistry.Add to Deps.Outputs. Fields:
//
//	Name    string                             // what --out NAME=ARG names: lower-case letters, digits, dashes
//	Aliases []string                           // other names for it (optional)
//	Usage   string                             // the form shown when --out names an unknown output, e.g. "tally=FILE"
//	Check   func(arg string) error             // validates ARG before anything runs, without side effects; nil accepts any
//	New     func(p OutputParams) (Output, error) // makes one output per run; must not start anything (Start does)
//	Preflight func(ctx context.Context, p OutputParams) error // checks the output can work (endpoint answers, file writable, port free) before the run; nil: nothing
//	Flag    string                             // the run flag that makes it instead of --out (e.g. "--prometheus"), "-" for one every run adds; "": an --out output
//	VUBytes int64                              // memory it needs per VU, bytes, for the memory check (0: none)
//
// A Check error is reported as "--out NAME: ERROR", exit code 2.
type OutputFactory = internalout.Factory

// OutputParams are what OutputFactory.New gets. Fields:
//
//	Arg        string              // the text after NAME= in --out NAME=ARG
//	Scenarios  []string            // the run's scenario names, in run order
//	Tags       map[string]string   // the run's tags (--tag, testid); TagsWithSegment() adds "segment"
//	Segment    string              // "i/N" when the run is a segment of a distributed run, else ""
//	Origin     string              // the target, without credentials
//	Thresholds map[string][]string // threshold expressions by metric name
//	Getenv     func(string) string // the environment (tokens come from here; may be nil: use Env)
//	Warn, Info io.Writer           // warnings, and remarks --quiet silences (may be nil: use WarnTo, InfoTo)
//	Start      time.Time           // when the run started (zero: now)
//	Options    map[string]string   // the spec's settings beyond Arg (OutputSpec.Options; nil: none)
//	Dir        string              // the result directory
//	TargetScheme string            // the target URL's scheme, lower case ("": each family's embedded default)
//	Run, Repeat int                // run n (from 1; 0: a single run) of Repeat repeated runs: name files outside Dir per run when Repeat > 1
//
// Registry (the run's metrics registry) and Generator serve the built-in
// outputs.
type OutputParams = internalout.Params

// OutputRegistry maps output names to factories: Add(OutputFactory)
// error, Lookup(name), Usages(). Outputs() and Catalog.Outputs() make
// one; set Deps.Outputs to it when you run a Plan with Execute.
type OutputRegistry = internalout.Registry

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
