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
	// hi is the lowest rate found not sustained (0: none); hold what the
	// final hold at best achieved.
	hi   int64
	hold holdResult
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
		switch {
		case !s.done && len(s.steps) == 0:
			verdict = "not converged: -d ended before the first step was judged"
		case !s.done:
			verdict = "not converged before the end of -d: the highest rate a step sustained"
		case s.hi > 0:
			verdict = sprintf("converged: %s msgs/s was not sustained", fmtRate(float64(s.hi)))
		}
		line := sprintf("max sustainable rate %s msgs/s (%s; steps: %s", fmtRate(float64(s.best)), verdict, b.String())
		if n := len(s.steps); n > 0 {
			last := s.steps[n-1]
			line += sprintf("; last step completed %s–%s msgs/s per window", fmtRate(last.lo), fmtRate(last.hi))
		}
		line += ")"
		if s.done && s.best > 0 {
			line += "; " + s.hold.describe()
		}
		s.note("%s", line)
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

// stepResult is one held rate; due and done count the judged part, lo
// and hi are the lowest and highest completion rate of its windows.
type stepResult struct {
	rate      int64
	ok        bool
	due, done int64
	errs      int64
	lo, hi    float64
}

// judgeWindows is how many windows the judged part of a step is cut into
// for its spread.
const judgeWindows = 4

// judgement is what judge saw over a span of a step.
type judgement struct {
	due, done int64
	// lo and hi are the completion rates (msgs/s) of the slowest and
	// fastest window; last the last window's, lastDue its due rate.
	lo, hi, last, lastDue float64
}

// ok tells whether the completed messages kept up with the due ones.
func (j judgement) ok(ratio float64) bool { return float64(j.done) >= ratio*float64(j.due)-1 }

// settling tells whether the last window completed faster than the rate
// (the backlog was shrinking).
func (j judgement) settling(rate int64) bool { return j.last >= float64(rate) && j.last > j.lastDue }

// judge watches the schedule for d in judgeWindows windows and returns
// due and completed messages with the windows' spread; false when ctx
// ended.
func (s *maxRateScenario) judge(ctx context.Context, d time.Duration) (judgement, bool) {
	j := judgement{lo: math.Inf(1)}
	t0 := s.clock.Now()
	d0, c0 := s.pace.due(t0), s.completed()
	prevT, prevD, prevC := t0, d0, c0
	for w := 1; w <= judgeWindows; w++ {
		if !sleepCtx(ctx, d/judgeWindows) {
			return j, false
		}
		now := s.clock.Now()
		due, done := s.pace.due(now), s.completed()
		if sec := (now - prevT).Seconds(); sec > 0 {
			r := float64(done-prevC) / sec
			j.lo, j.hi = min(j.lo, r), max(j.hi, r)
			j.last, j.lastDue = r, float64(due-prevD)/sec
		}
		prevT, prevD, prevC = now, due, done
	}
	j.due, j.done = prevD-d0, prevC-c0
	if math.IsInf(j.lo, 1) {
		j.lo = 0
	}
	return j, true
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
		// The first half fills the pipeline; the second half is judged,
		// in windows whose completion rates give the step's spread.
		if !sleepCtx(ctx, o.MaxRateStep/2) {
			return false, false
		}
		j, alive := s.judge(ctx, o.MaxRateStep-o.MaxRateStep/2)
		if !alive {
			return false, false
		}
		extended := false
		if !j.ok(sustainRatio) && j.settling(rate) {
			// The backlog shrank in the last window: the pipeline was
			// still filling. Judge one more half step on its own.
			if j, alive = s.judge(ctx, o.MaxRateStep-o.MaxRateStep/2); !alive {
				return false, false
			}
			extended = true
		}
		stepDue := s.pace.due(s.clock.Now()) - s.pace.dueBefore()
		errs := s.failed.Load() - f0
		ok := j.ok(sustainRatio) && float64(errs) <= o.MaxRateErrors*float64(stepDue)
		s.steps = append(s.steps, stepResult{rate: rate, ok: ok, due: j.due, done: j.done, errs: errs, lo: j.lo, hi: j.hi})
		verdict := "sustained"
		if !ok {
			verdict = "not sustained"
		}
		ext := ""
		if extended {
			ext = ", judged again after the backlog was still settling"
		}
		s.logf("%s: step %d: %s msgs/s for %s: judged %d due, %d completed (backlog %+d; completed %s–%s msgs/s per window%s), %d errors → %s",
			s.name, len(s.steps), fmtRate(float64(rate)), o.MaxRateStep, j.due, j.done, j.due-j.done, fmtRate(j.lo), fmtRate(j.hi), ext, errs, verdict)
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
	s.hi = hi
	if lo > 0 && s.settle(ctx, 5*o.MaxRateStep) {
		s.pace.set(s.clock.Now(), lo)
		s.holdAt(ctx, lo)
	}
}

// holdAt watches the final hold at rate until ctx ends, second by second,
// so that the summary says whether the found rate held.
func (s *maxRateScenario) holdAt(ctx context.Context, rate int64) {
	h := &s.hold
	h.rate = rate
	t0 := s.clock.Now()
	d0, c0 := s.pace.due(t0), s.completed()
	h.lo = math.Inf(1)
	prevT, prevC := t0, c0
	for sleepCtx(ctx, time.Second) {
		now := s.clock.Now()
		c := s.completed()
		r := float64(c-prevC) / (now - prevT).Seconds()
		h.lo, h.hi = min(h.lo, r), max(h.hi, r)
		h.secs++
		h.span = now - t0
		h.due, h.done = s.pace.due(now)-d0, c-c0
		prevT, prevC = now, c
	}
}

// holdResult is what the final hold at the found rate achieved.
type holdResult struct {
	rate      int64
	secs      int
	span      time.Duration
	due, done int64
	lo, hi    float64 // per-second completion rates
}

// describe says whether the hold sustained the rate.
func (h *holdResult) describe() string {
	if h.secs == 0 {
		return "the rest of -d was too short to hold it for a second"
	}
	got := float64(h.done) / h.span.Seconds()
	verdict := "it held"
	if !(float64(h.done) >= sustainRatio*float64(h.due)-1) {
		verdict = "it did NOT hold: treat it as an upper bound and re-run with a longer --max-rate-step"
	}
	return sprintf("held for %s afterwards: %s msgs/s completed (per second %s–%s), backlog %+d → %s",
		h.span.Round(time.Second), fmtRate(got), fmtRate(h.lo), fmtRate(h.hi), h.due-h.done, verdict)
}

func (s *maxRateScenario) finish(best int64, converged bool) {
	s.best, s.done = best, converged
	s.pending.Trend(s.ids.maxRat, best)
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
