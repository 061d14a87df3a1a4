package nats

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/msgload"
	"github.com/stampede-bench/stampede/vu"
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
	// rate is the core's MaxRate; the search reads PubAcks plus failures.
	rate *msgload.MaxRate
}

var (
	_ vu.Scenario   = (*maxRateScenario)(nil)
	_ vu.Teardowner = (*maxRateScenario)(nil)
)

func newMaxRate(r *run) *maxRateScenario {
	s := &maxRateScenario{base: newBase(r, ScenarioMaxRate)}
	o := &s.opts
	s.rate = msgload.NewMaxRate(&s.Core, o.MaxRate, s.Progress(false))
	return s
}

func (s *maxRateScenario) NewVU(_ context.Context, id int) (vu.VU, error) {
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
	s.StopBackground()
	s.report()
	if line := s.rate.Summary(); line != "" {
		s.Note("%s", line)
	}
	return nil
}

type maxRateVU struct {
	s     *maxRateScenario
	p     *publisher
	timer *time.Timer
}

func (v *maxRateVU) Iterate(ctx context.Context, it *vu.Iter) error {
	s := v.s
	s.Begin(it)
	v.p.it = it
	if ok, err := s.rate.Next(ctx, it, v.timer); !ok {
		return err // nil: paused between steps
	}
	_, err := v.p.publishSync(ctx, it)
	return err
}

func (v *maxRateVU) Close() error { v.s.CloseVU(v.p.it); v.p.close(); return nil }
