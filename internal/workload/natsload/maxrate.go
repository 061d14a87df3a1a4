package natsload

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
)

// maxRateScenario is nats.MaxRate: the VUs publish synchronously at a
// shared, paced rate; every --nats-max-rate-step a controller checks
// whether the step's rate was sustained (PubAcks ≥ 95% of the planned
// messages and errors within --nats-max-rate-errors), doubles the rate
// until a step fails and then bisects. The highest sustained rate is the
// result. The rate is also bounded by VUs ÷ publish latency: the notes say
// so when the VUs, not the cluster, were the limit.
type maxRateScenario struct {
	*base
	step    atomic.Pointer[rateStep]
	best    atomic.Int64
	lateVUs atomic.Int64 // steps in which VUs fell behind the schedule
	log     []string
}

// rateStep is one held rate: messages k of the step are due at start +
// k/rate.
type rateStep struct {
	rate         float64
	start, until time.Time
	issued       atomic.Int64
}

var (
	_ engine.Scenario   = (*maxRateScenario)(nil)
	_ engine.Teardowner = (*maxRateScenario)(nil)
)

func newMaxRate(r *run) *maxRateScenario {
	s := &maxRateScenario{base: newBase(r, ScenarioMaxRate)}
	s.onStart = append(s.onStart, s.control)
	now := time.Now()
	s.step.Store(&rateStep{rate: float64(r.opts.MaxRateStart), start: now, until: now.Add(r.opts.MaxRateStep)})
	return s
}

// control moves the rate at the end of every step.
func (s *maxRateScenario) control(ctx context.Context) {
	o := &s.opts
	lo, hi := 0.0, 0.0
	rate := float64(o.MaxRateStart)
	for {
		st := &rateStep{rate: rate, start: time.Now()}
		st.until = st.start.Add(o.MaxRateStep)
		s.step.Store(st)
		a0, f0 := s.acked.Load(), s.failed.Load()
		if !sleepCtx(ctx, o.MaxRateStep) {
			return
		}
		acked, failed := s.acked.Load()-a0, s.failed.Load()-f0
		planned := rate * o.MaxRateStep.Seconds()
		errRatio := 0.0
		if acked+failed > 0 {
			errRatio = float64(failed) / float64(acked+failed)
		}
		ok := float64(acked) >= 0.95*planned && errRatio <= o.MaxRateErrors
		if st.issued.Load() < int64(0.95*planned) {
			s.lateVUs.Add(1)
		}
		s.log = append(s.log, sprintf("%s→%s", fmtRate(rate), map[bool]string{true: "ok", false: "fail"}[ok]))
		if ok {
			lo = rate
			s.best.Store(int64(rate))
			s.pending.Trend(s.ids.maxRate, int64(rate))
		} else {
			hi = rate
		}
		if hi == 0 {
			rate *= 2
		} else {
			rate = (lo + hi) / 2
			if lo == 0 {
				rate = hi / 2
			}
		}
	}
}

func (s *maxRateScenario) NewVU(_ context.Context, id int) (engine.VU, error) {
	p, err := newPublisher(s.base, id)
	if err != nil {
		return nil, err
	}
	return &maxRateVU{s: s, p: p}, nil
}

// Teardown writes the result.
func (s *maxRateScenario) Teardown(context.Context) error {
	s.stopBackground()
	s.report()
	if s.started.Load() {
		line := sprintf("max rate: highest sustained %s msgs/s (steps %v)", fmtRate(float64(s.best.Load())), s.log)
		if s.lateVUs.Load() > 0 {
			line += sprintf("; in %d step(s) the VUs could not keep up with the schedule (one synchronous publish each): raise -u to test higher rates", s.lateVUs.Load())
		}
		s.note("%s", line)
	}
	return nil
}

type maxRateVU struct {
	s *maxRateScenario
	p *publisher
}

func (v *maxRateVU) Iterate(ctx context.Context, it *engine.Iter) error {
	s := v.s
	s.begin(it)
	for {
		st := s.step.Load()
		k := st.issued.Add(1) - 1
		due := st.start.Add(time.Duration(float64(k) / st.rate * float64(time.Second)))
		if due.Before(st.until) {
			if !sleepCtx(ctx, time.Until(due)) {
				return ctx.Err()
			}
			break
		}
		if !sleepCtx(ctx, time.Until(st.until)+time.Millisecond) {
			return ctx.Err()
		}
	}
	_, err := v.p.publishSync(ctx, it)
	return err
}

func (v *maxRateVU) Close() error { v.p.close(); return nil }
