// Package vu is the contract between stampede's engine and a workload:
// a Scenario makes VUs, the engine calls each VU's Iterate from its own
// goroutine with an Iter, and the Iter records what the iteration
// measured (requests, checks, trends, counters) into the VU's Recorder
// and the run's per-request log. It is k6's VU model: one goroutine and
// one connection per VU, the executor deciding when iterations start. A
// scenario whose VUs can share an event loop (Multiplexed) may instead
// have many VUs' iterations run as the steps of one loop.
//
// Package stampede offers a smaller handle (stampede.Scenario,
// stampede.Iteration) for scenarios written in Go; a family's
// Opened.Scenarios holds this package's Scenario, which
// stampede.AsRunnable makes from that handle.
package vu

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// Scenario makes VUs.
type Scenario interface {
	// NewVU prepares VU id (0-based within the scenario), typically opening
	// its own connection. It may be called concurrently.
	NewVU(ctx context.Context, id int) (VU, error)
}

// VU is one virtual user. The engine calls Iterate from a single goroutine.
type VU interface {
	// Iterate performs one iteration. Operations are recorded through it;
	// a returned error counts as a failed iteration with that message.
	// it is valid only during the call.
	Iterate(ctx context.Context, it *Iter) error
	Close() error
}

// Setupper is implemented by scenarios that prepare the target once before
// their VUs start (create topics, warm caches).
type Setupper interface {
	Setup(ctx context.Context) error
}

// Teardowner is implemented by scenarios that clean up once after the run.
type Teardowner interface {
	Teardown(ctx context.Context) error
}

// MeasuredSetupper is a Setupper whose work is measured: Setup records
// its operations through it as an iteration does (they count in the
// request metrics, the per-request log and the scenario's totals) but is
// not an iteration. A k6 script's setup() is one: k6 counts its requests.
// The engine prefers it to Setupper.
type MeasuredSetupper interface {
	SetupMeasured(ctx context.Context, it *Iter) error
}

// MeasuredTeardowner is a Teardowner whose work is measured (a k6
// script's teardown()); the engine prefers it to Teardowner.
type MeasuredTeardowner interface {
	TeardownMeasured(ctx context.Context, it *Iter) error
}

// Noter is implemented by scenarios that have remarks for the summary once
// they ran (per-topic spread, churn phases, a found maximum rate).
type Noter interface {
	Notes() []string
}

// Starter is implemented by scenarios that start background work (a
// per-second sampler, a churn schedule, a rate controller) when their VUs
// start, rather than at Setup, which runs before the VUs connect, or on
// their first iteration.
//
// The engine calls Started once per run of the scenario, from the
// executor's goroutine, after the initial VUs are allocated and before any
// of them iterates. at is the run offset of that moment and clock the
// run's clock; ctx ends with the scenario. Started must return quickly:
// longer work belongs in goroutines the scenario stops in Teardown. It is
// not called when the scenario stops (Ctrl+C, a VU that cannot connect)
// before its VUs exist.
type Starter interface {
	Started(ctx context.Context, at time.Duration, clock metric.Clock)
}

// Recorder takes one VU's measurements; the engine gives each Iter one
// (Iter.Rec). It is owned by the VU's goroutine: its methods must not be
// called concurrently. Times are run offsets (metric.Clock); a sample
// belongs to the second in which it was taken, and samples taken before
// the scenario's warm-up ended are discarded. Time trends are in µs.
type Recorder interface {
	// Trend records value v of trend id taken at time at.
	Trend(id metric.ID, at time.Duration, v int64)
	// Add adds n to counter id at time at.
	Add(id metric.ID, at time.Duration, n int64)
	// Rate records one pass or fail of rate id at time at.
	Rate(id metric.ID, at time.Duration, pass bool)
	// Gauge sets gauge id to v at once, without batching: for occasional
	// values (a k6 script's Gauge.add), not for every operation.
	Gauge(id metric.ID, v float64)
	// Error counts one error with message msg at time at (and the errors
	// counter).
	Error(at time.Duration, msg string)
	// Op records one operation that ended at time at: its responseTime
	// rt and, when not negative, its service time svc and the server's
	// latency lat (µs), and rows; a failed operation (errMsg non-empty)
	// records no rows nor latency. Iter.Request calls it.
	Op(at time.Duration, rt, svc, lat, rows int64, errMsg string)
	// HTTP records one HTTP request's k6 metrics (ids from
	// metric.RegisterHTTP) at time at.
	HTTP(at time.Duration, ids *metric.HTTPIDs, s *metric.HTTPSample)
	// Tick hands over the samples of a second that has passed: call it
	// before an operation that may block, so that the samples reach the
	// live view and the per-second series on time.
	Tick(now time.Duration)
	// Flush hands over everything buffered.
	Flush()
}
