// Package metrics records measurements without locks on the hot path and
// turns them into exact, mergeable snapshots.
//
// The flow: each VU owns a Recorder that appends samples to a small batch;
// full batches (or batches whose second has passed) go over a channel to the
// single Aggregator goroutine, which owns the HDR histograms. Snapshots taken
// from the Aggregator serialize to disk and merge exactly.
package metrics

import "github.com/stampede-bench/stampede/metric"

// Kind is the type of a metric (metric.Kind).
type Kind = metric.Kind

// The kinds of metric.
const (
	KindTrend   = metric.KindTrend
	KindCounter = metric.KindCounter
	KindRate    = metric.KindRate
	KindGauge   = metric.KindGauge
)

// ID indexes a metric in a Registry (metric.ID).
type ID = metric.ID

// Def describes one metric (metric.Def).
type Def = metric.Def

// Registry is the set of metrics of one run (metric.Registry).
type Registry = metric.Registry

// Built-in metric names (metric's).
const (
	ResponseTime      = metric.ResponseTime
	Latency           = metric.Latency
	ServiceTime       = metric.ServiceTime
	IterationDuration = metric.IterationDuration
	Rows              = metric.Rows
	Iterations        = metric.Iterations
	Requests          = metric.Requests
	Errors            = metric.Errors
	DroppedIterations = metric.DroppedIterations
	Checks            = metric.Checks
	VUs               = metric.VUs
	VUsMax            = metric.VUsMax
	RequestsFailed    = metric.RequestsFailed
	CheckPrefix       = metric.CheckPrefix
)

// Fixed IDs of the built-in metrics (metric's).
const (
	IDResponseTime      = metric.IDResponseTime
	IDLatency           = metric.IDLatency
	IDServiceTime       = metric.IDServiceTime
	IDIterationDuration = metric.IDIterationDuration
	IDRows              = metric.IDRows
	IDIterations        = metric.IDIterations
	IDRequests          = metric.IDRequests
	IDErrors            = metric.IDErrors
	IDDropped           = metric.IDDropped
	IDChecks            = metric.IDChecks
	IDVUs               = metric.IDVUs
	IDVUsMax            = metric.IDVUsMax
	IDRequestsFailed    = metric.IDRequestsFailed
)

// NewRegistry is metric.NewRegistry.
func NewRegistry() *Registry { return metric.NewRegistry() }

// CheckMetric is metric.CheckMetric.
func CheckMetric(name string) Def { return metric.CheckMetric(name) }

// CheckName is metric.CheckName.
func CheckName(name string) (string, bool) { return metric.CheckName(name) }
