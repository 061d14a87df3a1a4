package metric

import (
	"fmt"
	"sort"
)

// ID indexes a metric in a Registry.
type ID uint16

// Def describes one metric.
type Def struct {
	Name string
	Kind Kind
	Unit Unit
}

// Built-in metric names (k6 and nebula-bench vocabulary).
const (
	ResponseTime      = "responseTime"       // client-measured µs (from intended start under arrival-rate executors)
	Latency           = "latency"            // server-reported µs, when the driver has it
	ServiceTime       = "service_time"       // client µs from actual start (uncorrected for coordinated omission)
	IterationDuration = "iteration_duration" // µs per iteration
	Rows              = "rows"               // rows per request
	Iterations        = "iterations"         // completed iterations
	Requests          = "requests"           // operations sent to the target
	Errors            = "errors"             // failed operations and iterations (a counter: its "rate" is failures per second; the fraction is requests_failed)
	DroppedIterations = "dropped_iterations" // arrival-rate iterations that found no free VU
	Checks            = "checks"             // rate of passed checks
	VUs               = "vus"                // active VUs
	VUsMax            = "vus_max"            // allocated VUs
	// RequestsFailed is k6's Rate for failures of every family: value =
	// failed operations / all operations (a fraction, so that
	// 'requests_failed: rate<0.01' reads as in k6). As in k6's
	// http_req_failed, "passes" count the failed operations.
	RequestsFailed = "requests_failed"
)

// CheckPrefix starts the names of named-check rates, k6's submetric
// spelling: checks{check:rows match the reference}.
const CheckPrefix = "checks{check:"

// CheckMetric returns the rate metric of the check called name.
func CheckMetric(name string) Def {
	return Def{Name: CheckPrefix + name + "}", Kind: KindRate}
}

// CheckName returns the check's name when name is a named-check rate.
func CheckName(name string) (string, bool) {
	if len(name) > len(CheckPrefix) && name[:len(CheckPrefix)] == CheckPrefix && name[len(name)-1] == '}' {
		return name[len(CheckPrefix) : len(name)-1], true
	}
	return "", false
}

// Registry is the set of metrics of one run. Built-ins are always present
// with fixed IDs; workloads add their own before the run starts. A Registry
// is read-only once the run starts and then safe for concurrent use.
type Registry struct {
	defs   []Def
	byName map[string]ID
	series []ID // trends with per-second histograms (see MarkSeries)
}

// MarkSeries asks for a per-second histogram of trend id besides
// responseTime's, handed to observers in Point.Trends (live outputs draw
// k6's http_req_duration from it). Call it before the run starts.
func (r *Registry) MarkSeries(id ID) {
	for _, s := range r.series {
		if s == id {
			return
		}
	}
	r.series = append(r.series, id)
}

// Series lists the trends marked with MarkSeries.
func (r *Registry) Series() []ID { return r.series }

// Fixed IDs of the built-in metrics.
const (
	IDResponseTime ID = iota
	IDLatency
	IDServiceTime
	IDIterationDuration
	IDRows
	IDIterations
	IDRequests
	IDErrors
	IDDropped
	IDChecks
	IDVUs
	IDVUsMax
	IDRequestsFailed
)

// NewRegistry returns a registry holding the built-in metrics.
func NewRegistry() *Registry {
	r := &Registry{byName: map[string]ID{}}
	for _, d := range []Def{
		{ResponseTime, KindTrend, UnitMicros},
		{Latency, KindTrend, UnitMicros},
		{ServiceTime, KindTrend, UnitMicros},
		{IterationDuration, KindTrend, UnitMicros},
		{Rows, KindTrend, UnitNone},
		{Iterations, KindCounter, UnitNone},
		{Requests, KindCounter, UnitNone},
		{Errors, KindCounter, UnitNone},
		{DroppedIterations, KindCounter, UnitNone},
		{Checks, KindRate, UnitNone},
		{VUs, KindGauge, UnitNone},
		{VUsMax, KindGauge, UnitNone},
		{RequestsFailed, KindRate, UnitNone},
	} {
		if _, err := r.Add(d); err != nil {
			panic(err) // unreachable: built-ins are distinct
		}
	}
	return r
}

// Add registers a metric, or returns the existing ID when a metric of the
// same name, kind and unit exists. A clash of kinds is an error.
func (r *Registry) Add(d Def) (ID, error) {
	if id, ok := r.byName[d.Name]; ok {
		if r.defs[id] != d {
			return 0, fmt.Errorf("metric %q already registered as a %s", d.Name, r.defs[id].Kind)
		}
		return id, nil
	}
	if d.Name == "" || d.Kind == 0 {
		return 0, fmt.Errorf("metric needs a name and a kind")
	}
	id := ID(len(r.defs))
	r.defs = append(r.defs, d)
	r.byName[d.Name] = id
	return id, nil
}

// MustAdd is Add for workload setup code with constant definitions.
func (r *Registry) MustAdd(d Def) ID {
	id, err := r.Add(d)
	if err != nil {
		panic(err)
	}
	return id
}

// Lookup returns the ID of a metric by name.
func (r *Registry) Lookup(name string) (ID, bool) {
	id, ok := r.byName[name]
	return id, ok
}

// Def returns the definition of id.
func (r *Registry) Def(id ID) Def { return r.defs[id] }

// Len is the number of registered metrics.
func (r *Registry) Len() int { return len(r.defs) }

// Names lists the metric names in sorted order.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.defs))
	for _, d := range r.defs {
		out = append(out, d.Name)
	}
	sort.Strings(out)
	return out
}
