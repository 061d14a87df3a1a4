package mq

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// kafka.MaxRate searches the highest rate the cluster sustains with the
// messaging core's search (msgload.Search, shared with nats.MaxRate), like
// OpenMessaging Benchmark's rate controller but as a bracketing search:
//
//  1. Hold a rate R for --max-rate-step (first R = --max-rate-start) after
//     letting everything in flight drain.
//  2. The first half of the step fills the pipeline. The step is sustained
//     when, in its second half, the backlog does not grow: the messages
//     completed (consumed with --consumers ≥ 1, acknowledged otherwise)
//     reach 98% of the messages the schedule made due, whatever the
//     latency; and errors stay within --max-rate-errors of the step's
//     messages. The backlog is due minus completed.
//  3. Double R while steps are sustained; after the first failure, bisect
//     between the highest sustained and the lowest failed rate until they
//     are within --max-rate-precision of each other.
//  4. Hold the highest sustained rate for the rest of -d, so the summary's
//     latencies describe the cluster at that rate, and report it as the
//     max_rate trend and a note.
//
// The VUs are the messages in flight: give enough of them (-u) for the
// rates tried, or the client becomes the limit (the step then fails on
// backlog, honestly).
type maxRateScenario struct {
	*base
	prod   *producers
	cons   *background
	pace   *msgload.Pacer
	search *msgload.Search
}

var (
	_ engine.Scenario   = (*maxRateScenario)(nil)
	_ engine.Setupper   = (*maxRateScenario)(nil)
	_ engine.Teardowner = (*maxRateScenario)(nil)
	_ msgload.Progress  = (*maxRateProgress)(nil)
)

func newMaxRate(r *run) *maxRateScenario {
	s := &maxRateScenario{base: newBase(r, ScenarioMaxRate)}
	s.onStart = append(s.onStart, func(ctx context.Context, _ time.Duration) {
		s.pace.Run(ctx)
	}, func(ctx context.Context, _ time.Duration) {
		s.search.Run(ctx)
	})
	s.addChurn()
	return s
}

// Started makes the pacer and the search on the run clock, then starts the
// background work (base.Started).
func (s *maxRateScenario) Started(ctx context.Context, at time.Duration, clock metrics.Clock) {
	if s.pace == nil {
		o := &s.opts
		s.pace = msgload.NewPacer(clock.Now)
		s.search = &msgload.Search{
			Opts: msgload.SearchOptions{Start: o.MaxRateStart, Step: o.MaxRateStep, Errors: o.MaxRateErrors, Precision: o.MaxRatePrecision},
			Pace: s.pace, Now: clock.Now, Load: (*maxRateProgress)(s),
			Logf:  func(format string, args ...any) { s.logf("%s: "+format, append([]any{s.name}, args...)...) },
			Found: func(best int64) { s.pending.Trend(s.ids.maxRat, best) },
		}
	}
	s.base.Started(ctx, at, clock)
}

func (s *maxRateScenario) Setup(ctx context.Context) error {
	if s.opts.Consumers > 0 {
		cons, err := s.startConsumers(ctx, nil)
		if err != nil {
			return err
		}
		s.cons = cons
	}
	var err error
	s.prod, err = newProducers(s.run)
	return err
}

func (s *maxRateScenario) Teardown(context.Context) error {
	s.stopBackground()
	s.cons.close()
	if s.prod != nil {
		s.prod.close()
	}
	s.report()
	if s.started.Load() {
		s.note("%s", s.search.Summary())
	}
	return nil
}

func (s *maxRateScenario) NewVU(_ context.Context, id int) (engine.VU, error) {
	return &maxRateVU{s: s, snd: newSender(s.base, id, 1), timer: time.NewTimer(time.Hour)}, nil
}

type maxRateVU struct {
	s     *maxRateScenario
	snd   *sender
	timer *time.Timer
}

// maxRateProgress is what the search reads: messages completed are
// consumed (with --consumers ≥ 1) or acknowledged, plus failed ones.
type maxRateProgress maxRateScenario

func (p *maxRateProgress) Sent() int64   { return p.sent.Load() }
func (p *maxRateProgress) Failed() int64 { return p.failed.Load() }
func (p *maxRateProgress) Completed() int64 {
	if p.cons != nil {
		return p.consumed.Load() + p.failed.Load()
	}
	return p.acked.Load() + p.failed.Load()
}

func (s *maxRateScenario) backlog(it *engine.Iter, now, _ time.Duration) {
	it.Rec.Trend(s.ids.backlog, now, max(0, s.pace.Due(now)-(*maxRateProgress)(s).Completed()))
}

func (v *maxRateVU) Iterate(ctx context.Context, it *engine.Iter) error {
	s := v.s
	s.begin(it, s.backlog)
	intended, ok, err := s.pace.Next(ctx, v.timer, 100*time.Millisecond)
	if !ok {
		return err // nil: paused between steps
	}
	return v.snd.send(ctx, it, s.prod.pick, intended)
}

func (v *maxRateVU) Close() error {
	v.s.closeVU(v.snd.it)
	return nil
}
