package kafka

import (
	"context"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/internal/workload/msgload"
	"github.com/stampede-bench/stampede/vu"
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
	prod *producers
	cons *background
	// rate is the core's MaxRate; the search reads messages consumed
	// (with --consumers ≥ 1) or acknowledged, plus failed ones.
	rate *msgload.MaxRate
}

var (
	_ vu.Scenario   = (*maxRateScenario)(nil)
	_ vu.Setupper   = (*maxRateScenario)(nil)
	_ vu.Teardowner = (*maxRateScenario)(nil)
)

func newMaxRate(r *run) *maxRateScenario {
	s := &maxRateScenario{base: newBase(r, ScenarioMaxRate)}
	o := &s.opts
	s.rate = msgload.NewMaxRate(&s.Core, o.MaxRate, s.Progress(o.Consumers > 0))
	s.addChurn()
	s.EverySecond(s.backlog)
	return s
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
	s.StopBackground()
	s.cons.close()
	if s.prod != nil {
		s.prod.close()
	}
	s.report()
	if line := s.rate.Summary(); line != "" {
		s.Note("%s", line)
	}
	return nil
}

func (s *maxRateScenario) NewVU(_ context.Context, id int) (vu.VU, error) {
	return &maxRateVU{s: s, snd: newSender(s.base, id, 1), pick: s.picker(s.prod, id), timer: time.NewTimer(time.Hour)}, nil
}

type maxRateVU struct {
	s     *maxRateScenario
	snd   *sender
	pick  func() (*kgo.Client, int)
	timer *time.Timer
}

// backlog samples the messages due by the schedule but not completed.
func (s *maxRateScenario) backlog(now time.Duration) {
	s.Pending.Trend(s.ids.backlog, s.rate.Backlog(now))
}

func (v *maxRateVU) Iterate(ctx context.Context, it *vu.Iter) error {
	s := v.s
	s.Begin(it)
	if ok, err := s.rate.Next(ctx, it, v.timer); !ok {
		return err // nil: paused between steps
	}
	return v.snd.send(ctx, it, v.pick, it.Intended)
}

func (v *maxRateVU) Close() error {
	v.s.CloseVU(v.snd.it)
	return nil
}
