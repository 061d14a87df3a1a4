package stampede

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

// Scenario makes virtual users. NewVU may be called concurrently, once per
// VU, typically to open the VU's own connection.
//
// A Scenario may also implement Setup(ctx) error, run once before its VUs
// start; Started(ctx, at time.Duration), called once when its initial VUs
// exist and before any iterates (at is the run-clock offset; start
// background work there, and stop it when ctx ends); Teardown(ctx) error,
// run once after the VUs; and Notes() []string, remarks for the summary
// once it ran.
type Scenario interface {
	NewVU(ctx context.Context, id int) (VU, error)
}

// VU is one virtual user. Iterate is called from a single goroutine, one
// iteration after another, until the executor stops the VU; ctx ends when
// the run stops (Ctrl+C, end of the duration). A returned error counts a
// failed iteration with that message. Close releases the VU.
type VU interface {
	Iterate(ctx context.Context, it Iteration) error
	Close() error
}

// Outcome is the outcome of one request, for RecordRequest.
type Outcome struct {
	// Err is non-nil when the request failed. Its message groups failures
	// in the summary: keep it stable (no ids or timestamps in it).
	Err error
	// Rows is the number of result rows, records or items (0: none).
	Rows int64
	// ServerLatency is the latency the target reported, when it reports
	// one (HasServerLatency); it fills the latency column of the CSV.
	ServerLatency    time.Duration
	HasServerLatency bool
}

// Iteration is the handle of one iteration of a VU: it says which
// iteration this is and records what the iteration measures. It is only
// valid during the Iterate call it was passed to.
type Iteration struct {
	it *vu.Iter
}

// VU is the VU's number within the scenario, from 0.
func (i Iteration) VU() int { return i.it.VU }

// Number counts the VU's iterations from 0.
func (i Iteration) Number() int64 { return i.it.N }

// Started is when the iteration started, as an offset on the run's clock.
func (i Iteration) Started() time.Duration { return i.it.Start }

// Now reads the run's clock (monotonic, an offset from the run's start).
func (i Iteration) Now() time.Duration { return i.it.Now() }

// RecordRequest records one request that started at start (read with
// Now before sending it) and ended now: its response time in the
// responseTime trend (from the iteration's intended start under an arrival
// rate, so that a stalled target cannot hide), a failure in the error
// counts when o.Err is set, rows, the server's latency, and a line in the
// per-request CSV labelled label. It returns the end time.
func (i Iteration) RecordRequest(label string, start time.Duration, o Outcome) time.Duration {
	return i.it.Request(label, start, driver.Result{Rows: o.Rows, ServerLatency: o.ServerLatency, HasLatency: o.HasServerLatency, Err: o.Err})
}

// RecordCheck records one pass/fail check in the checks rate (k6's
// checks metric: a threshold such as 'checks: rate>0.99' judges it).
func (i Iteration) RecordCheck(ok bool) { i.it.Check(ok) }

// engineScenario runs a Scenario on the engine.
type engineScenario struct{ s Scenario }

func (e engineScenario) NewVU(ctx context.Context, id int) (vu.VU, error) {
	vu, err := e.s.NewVU(ctx, id)
	if err != nil {
		return nil, err
	}
	return engineVU{vu}, nil
}

// Setup implements vu.Setupper when the scenario has a Setup.
func (e engineScenario) Setup(ctx context.Context) error {
	if s, ok := e.s.(interface{ Setup(context.Context) error }); ok {
		return s.Setup(ctx)
	}
	return nil
}

// Started implements vu.Starter when the scenario has a Started.
func (e engineScenario) Started(ctx context.Context, at time.Duration, _ metrics.Clock) {
	if s, ok := e.s.(interface {
		Started(context.Context, time.Duration)
	}); ok {
		s.Started(ctx, at)
	}
}

// Teardown implements vu.Teardowner when the scenario has a Teardown.
func (e engineScenario) Teardown(ctx context.Context) error {
	if s, ok := e.s.(interface{ Teardown(context.Context) error }); ok {
		return s.Teardown(ctx)
	}
	return nil
}

// Notes implements vu.Noter when the scenario has Notes.
func (e engineScenario) Notes() []string {
	if s, ok := e.s.(interface{ Notes() []string }); ok {
		return s.Notes()
	}
	return nil
}

type engineVU struct{ vu VU }

func (v engineVU) Iterate(ctx context.Context, it *vu.Iter) error {
	return v.vu.Iterate(ctx, Iteration{it})
}

func (v engineVU) Close() error { return v.vu.Close() }

var (
	_ vu.Scenario   = engineScenario{}
	_ vu.Setupper   = engineScenario{}
	_ vu.Teardowner = engineScenario{}
	_ vu.Starter    = engineScenario{}
	_ vu.Noter      = engineScenario{}
	_ vu.VU         = engineVU{}
)
