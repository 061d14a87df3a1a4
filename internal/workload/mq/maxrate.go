package mq

import (
	"context"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// kafka.MaxRate searches the highest rate the cluster sustains, like
// OpenMessaging Benchmark's rate controller but as a bracketing search:
//
//  1. Hold a rate R for --max-rate-step (first R = --max-rate-start) after
//     letting everything in flight drain.
//  2. The first half of the step fills the pipeline. The step is sustained
//     when, in its second half, the backlog does not grow: the messages
//     completed (consumed with --consumers ≥ 1, acknowledged otherwise)
//     reach 95% of the messages the schedule made due, whatever the
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
	prod  *producers
	cons  *background
	pace  *pacer
	steps []stepResult
	best  int64
	done  bool
}

// sustainRatio is the fraction of due messages a sustained step completes.
const sustainRatio = 0.95

var (
	_ engine.Scenario   = (*maxRateScenario)(nil)
	_ engine.Setupper   = (*maxRateScenario)(nil)
	_ engine.Teardowner = (*maxRateScenario)(nil)
)

func newMaxRate(r *run) *maxRateScenario {
	s := &maxRateScenario{base: newBase(r, ScenarioMaxRate)}
	s.pace = newPacer()
	s.onStart = append(s.onStart, func(ctx context.Context, _ time.Duration) {
		s.pace.clock = s.clock
		s.pace.run(ctx)
	}, s.control)
	s.addChurn()
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
	s.stopBackground()
	s.cons.close()
	if s.prod != nil {
		s.prod.close()
	}
	s.report()
	if s.started.Load() {
		var b strings.Builder
		for i, st := range s.steps {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(fmtRate(float64(st.rate)))
			if st.ok {
				b.WriteString("✓")
			} else {
				b.WriteString("✗")
			}
		}
		verdict := "converged"
		if !s.done {
			verdict = "not converged before the end of -d"
		}
		s.note("max sustainable rate %s msgs/s (%s; steps: %s)", fmtRate(float64(s.best)), verdict, b.String())
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

// done is the number of messages completed: consumed, or acknowledged
// and failed without consumers.
func (s *maxRateScenario) completed() int64 {
	if s.cons != nil {
		return s.consumed.Load() + s.failed.Load()
	}
	return s.acked.Load() + s.failed.Load()
}

func (s *maxRateScenario) backlog(it *engine.Iter, now, _ time.Duration) {
	it.Rec.Trend(s.ids.backlog, now, max(0, s.pace.due(now)-s.completed()))
}

func (v *maxRateVU) Iterate(ctx context.Context, it *engine.Iter) error {
	s := v.s
	s.begin(it, s.backlog)
	v.timer.Reset(100 * time.Millisecond)
	var intended time.Duration
	select {
	case intended = <-s.pace.slots:
		v.timer.Stop()
	case <-v.timer.C:
		return nil // paused between steps
	case <-ctx.Done():
		v.timer.Stop()
		return ctx.Err()
	}
	return v.snd.send(ctx, it, s.prod.pick, intended)
}

func (v *maxRateVU) Close() error {
	v.s.closeVU(v.snd.it)
	return nil
}

// stepResult is one held rate; due and done count the second half.
type stepResult struct {
	rate      int64
	ok        bool
	due, done int64
	errs      int64
}

// control runs the search (see the type comment).
func (s *maxRateScenario) control(ctx context.Context, _ time.Duration) {
	o := &s.opts
	step := func(rate int64) (bool, bool) {
		if !s.settle(ctx, 5*o.MaxRateStep) {
			return false, false
		}
		f0 := s.failed.Load()
		s.pace.set(s.clock.Now(), rate)
		// The first half fills the pipeline; the second half is judged.
		if !sleepCtx(ctx, o.MaxRateStep/2) {
			return false, false
		}
		mid := s.clock.Now()
		d1, c1 := s.pace.due(mid), s.completed()
		if !sleepCtx(ctx, o.MaxRateStep-o.MaxRateStep/2) {
			return false, false
		}
		end := s.clock.Now()
		due, done := s.pace.due(end)-d1, s.completed()-c1
		stepDue := s.pace.due(end) - s.pace.dueBefore()
		errs := s.failed.Load() - f0
		ok := float64(done) >= sustainRatio*float64(due)-1 && float64(errs) <= o.MaxRateErrors*float64(stepDue)
		s.steps = append(s.steps, stepResult{rate: rate, ok: ok, due: due, done: done, errs: errs})
		verdict := "sustained"
		if !ok {
			verdict = "not sustained"
		}
		s.logf("%s: step %d: %s msgs/s for %s: second half %d due, %d completed (backlog %+d), %d errors → %s",
			s.name, len(s.steps), fmtRate(float64(rate)), o.MaxRateStep, due, done, due-done, errs, verdict)
		return ok, true
	}
	lo, hi := int64(0), int64(0)
	rate := o.MaxRateStart
	for hi == 0 {
		ok, alive := step(rate)
		if !alive {
			s.finish(lo, false)
			return
		}
		if ok {
			lo = rate
			if rate > math.MaxInt64/4 {
				break
			}
			rate *= 2
		} else {
			hi = rate
		}
	}
	for hi > 0 && hi-lo > 1 && (lo == 0 || float64(hi-lo)/float64(lo) > o.MaxRatePrecision) {
		mid := lo + (hi-lo)/2
		ok, alive := step(mid)
		if !alive {
			s.finish(lo, false)
			return
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	s.finish(lo, true)
	if lo > 0 {
		s.settle(ctx, 5*o.MaxRateStep)
		s.pace.set(s.clock.Now(), lo)
	}
}

func (s *maxRateScenario) finish(best int64, converged bool) {
	s.best, s.done = best, converged
	s.pending.trend(s.ids.maxRat, best)
	s.logf("%s: highest sustained rate %s msgs/s", s.name, fmtRate(float64(best)))
}

// settle pauses the schedule and waits up to limit until nothing is in
// flight and consumers caught up. It reports false when ctx ended.
func (s *maxRateScenario) settle(ctx context.Context, limit time.Duration) bool {
	s.pace.pause(s.clock.Now())
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if s.completed() >= s.sent.Load() {
			return true
		}
		if !sleepCtx(ctx, 10*time.Millisecond) {
			return false
		}
	}
	if ctx.Err() != nil {
		return false
	}
	s.logf("%s: %d messages still in flight or unconsumed after %s; the next step starts anyway", s.name, s.sent.Load()-s.completed(), limit)
	return true
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// pacer is a small arrival-rate schedule whose rate can change: it hands
// the intended send times (run offsets) to VUs over slots, late when no
// VU is free, so that publish_delay and responseTime stay honest.
type pacer struct {
	slots chan time.Duration
	clock metrics.Clock

	mu      sync.Mutex
	base    time.Duration // start of the current rate
	rate    int64         // msgs/s; 0: paused
	dueOld  int64         // due before base
	changed chan struct{} // closed when the rate changes
}

func newPacer() *pacer {
	return &pacer{slots: make(chan time.Duration), changed: make(chan struct{})}
}

// dueAt is how many messages of the current rate are due at now.
func (p *pacer) dueAt(now time.Duration) int64 {
	if p.rate == 0 || now < p.base {
		return 0
	}
	return int64(float64(now-p.base)*float64(p.rate)/float64(time.Second)) + 1
}

// dueBefore is how many messages were due when the current rate was set.
func (p *pacer) dueBefore() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dueOld
}

// due is how many messages the schedule has called for until now.
func (p *pacer) due(now time.Duration) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dueOld + p.dueAt(now)
}

func (p *pacer) set(now time.Duration, rate int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dueOld += p.dueAt(now)
	p.base, p.rate = now, rate
	close(p.changed)
	p.changed = make(chan struct{})
}

func (p *pacer) pause(now time.Duration) { p.set(now, 0) }

func (p *pacer) current() (time.Duration, int64, chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.base, p.rate, p.changed
}

// run hands out slots until ctx ends.
func (p *pacer) run(ctx context.Context) {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		base, rate, changed := p.current()
		if rate == 0 {
			select {
			case <-changed:
				continue
			case <-ctx.Done():
				return
			}
		}
		interval := float64(time.Second) / float64(rate)
	slots:
		for k := int64(0); ; k++ {
			at := base + time.Duration(float64(k)*interval)
			if wait := at - p.clock.Now(); wait > 0 {
				t.Reset(wait)
				select {
				case <-t.C:
				case <-changed:
					break slots
				case <-ctx.Done():
					return
				}
			}
			select {
			case p.slots <- at:
			case <-changed:
				break slots
			case <-ctx.Done():
				return
			}
		}
	}
}
