package natsload

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// maxRateScenario is nats.MaxRate: the messaging core's search
// (msgload.Search, the same as kafka.MaxRate's) over a shared pacer; each
// VU takes the next slot of the schedule and publishes one message
// synchronously, counted on its PubAck. A step is sustained while the
// PubAcks (plus failures) keep up with 98% of the due messages and errors
// stay within --nats-max-rate-errors; the rate doubles until a step fails,
// then bisects to within --nats-max-rate-precision, and the found rate is
// held for the rest of -d. With one synchronous publish per VU the rate is
// also bounded by VUs ÷ publish latency: the notes say so when the VUs,
// not the cluster, were the limit (publish_delay grows).
type maxRateScenario struct {
	*base
	pace   *msgload.Pacer
	search *msgload.Search
	// late counts slots a VU took later than one step after their
	// intended time: the VUs, not the cluster, fell behind.
	late atomicInt
}

var (
	_ engine.Scenario   = (*maxRateScenario)(nil)
	_ engine.Teardowner = (*maxRateScenario)(nil)
	_ msgload.Progress  = (*maxRateProgress)(nil)
)

func newMaxRate(r *run) *maxRateScenario {
	s := &maxRateScenario{base: newBase(r, ScenarioMaxRate)}
	s.onStart = append(s.onStart, func(ctx context.Context) { s.pace.Run(ctx) }, func(ctx context.Context) { s.search.Run(ctx) })
	return s
}

// maxRateProgress is what the search reads: PubAcks plus failures.
type maxRateProgress maxRateScenario

func (p *maxRateProgress) Sent() int64      { return p.sent.Load() }
func (p *maxRateProgress) Failed() int64    { return p.failed.Load() }
func (p *maxRateProgress) Completed() int64 { return p.acked.Load() + p.failed.Load() }

// Started makes the pacer and the search on the run clock, then starts the
// background work.
func (s *maxRateScenario) Started(ctx context.Context, at time.Duration, clock metrics.Clock) {
	if s.pace == nil {
		o := &s.opts
		s.pace = msgload.NewPacer(clock.Now)
		s.search = &msgload.Search{
			Opts: msgload.SearchOptions{Start: o.MaxRateStart, Step: o.MaxRateStep, Errors: o.MaxRateErrors, Precision: o.MaxRatePrecision},
			Pace: s.pace, Now: clock.Now, Load: (*maxRateProgress)(s),
			Logf:  func(format string, args ...any) { s.logf("%s: "+format, append([]any{s.name}, args...)...) },
			Found: func(best int64) { s.pending.Trend(s.ids.maxRate, best) },
		}
	}
	s.base.Started(ctx, at, clock)
}

func (s *maxRateScenario) NewVU(_ context.Context, id int) (engine.VU, error) {
	p, err := newPublisher(s.base, id)
	if err != nil {
		return nil, err
	}
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &maxRateVU{s: s, p: p, timer: t}, nil
}

// Teardown writes the result.
func (s *maxRateScenario) Teardown(context.Context) error {
	s.stopBackground()
	s.report()
	if s.started.Load() {
		line := s.search.Summary()
		if n := s.late.Load(); n > 0 {
			line += sprintf("; %d message(s) were sent more than one step after their intended time: the VUs (one synchronous publish each) fell behind the schedule, raise -u to test higher rates", n)
		}
		s.note("%s", line)
	}
	return nil
}

type maxRateVU struct {
	s     *maxRateScenario
	p     *publisher
	timer *time.Timer
}

func (v *maxRateVU) Iterate(ctx context.Context, it *engine.Iter) error {
	s := v.s
	s.begin(it)
	v.p.it = it
	intended, ok, err := s.pace.Next(ctx, v.timer, 100*time.Millisecond)
	if !ok {
		return err // nil: paused between steps
	}
	if it.Now()-intended > s.opts.MaxRateStep {
		s.late.Add(1)
	}
	it.Intended = intended
	_, err = v.p.publishSync(ctx, it)
	return err
}

func (v *maxRateVU) Close() error { v.s.closeVU(v.p.it); v.p.close(); return nil }
