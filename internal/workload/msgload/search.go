package msgload

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/families/msgopt"
)

// SustainRatio is the fraction of the due messages a sustained step must
// complete in its judged part: the backlog may grow by at most 2% of them.
// A broker of capacity C then sustains at most C/0.98 (+2%); with 0.95 a
// rate 5.3% above C passed, and the final hold at it did not hold
// (TestSearchFindsTheSyntheticCapacity).
const SustainRatio = 0.98

// judgeWindows is how many windows the judged part of a step is cut into
// for its spread.
const judgeWindows = 4

// Progress is what the search reads of the load: counts only, so that the
// search is a pure controller testable against a synthetic broker.
type Progress interface {
	// Sent counts messages handed to the broker client.
	Sent() int64
	// Completed counts messages done with: consumed when the scenario
	// consumes, else acknowledged, plus those that failed.
	Completed() int64
	// Failed counts messages that failed.
	Failed() int64
}

// Search looks for the highest rate the broker sustains, like OpenMessaging
// Benchmark's rate controller but as a bracketing search:
//
//  1. Hold a rate R for Step (first R = Start) after letting everything in
//     flight drain (settle, up to 5 steps).
//  2. The first half of the step fills the pipeline. The step is sustained
//     when, in its second half, the backlog does not grow: the messages
//     completed reach SustainRatio of the messages the schedule made due,
//     whatever the latency; and errors stay within Errors of the step's
//     messages. When the last window completed faster than the rate (the
//     backlog was shrinking: the pipeline was still filling), one more half
//     step is judged on its own.
//  3. Double R while steps are sustained; after the first failure, bisect
//     between the highest sustained and the lowest failed rate until they
//     are within Precision of each other.
//  4. Hold the highest sustained rate until ctx ends, so that the summary's
//     latencies describe the broker at that rate, and say whether it held.
//
// Fill the fields and call Run once, in its own goroutine; read the
// results (Best, Steps, Summary) after Run returned.
type Search struct {
	Opts msgopt.MaxRate
	Pace *Pacer
	// Now reads the run clock.
	Now  func() time.Duration
	Load Progress
	// Logf logs a step (may be nil).
	Logf func(format string, args ...any)
	// Found is called once with the result (may be nil).
	Found func(best int64)

	// Steps are the rates tried, in order.
	Steps []Step
	// Best is the highest sustained rate (0: none), Failed the lowest rate
	// found not sustained (0: none), Converged whether the bisection ended
	// before ctx did.
	Best, Failed int64
	Converged    bool
	hold         holdResult
}

// Step is one held rate; Due and Done count its judged part, Lo and Hi are
// the lowest and highest completion rates of its windows.
type Step struct {
	Rate      int64
	OK        bool
	Due, Done int64
	Errs      int64
	Lo, Hi    float64
}

// judgement is what judge saw over a span of a step.
type judgement struct {
	due, done int64
	// lo and hi are the completion rates (msgs/s) of the slowest and
	// fastest window; last the last window's, lastDue its due rate.
	lo, hi, last, lastDue float64
}

func (j judgement) ok() bool { return float64(j.done) >= SustainRatio*float64(j.due)-1 }

func (j judgement) settling(rate int64) bool { return j.last >= float64(rate) && j.last > j.lastDue }

func (s *Search) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

// judge watches the schedule for d in judgeWindows windows; false when ctx
// ended.
func (s *Search) judge(ctx context.Context, d time.Duration) (judgement, bool) {
	j := judgement{lo: math.Inf(1)}
	t0 := s.Now()
	d0, c0 := s.Pace.Due(t0), s.Load.Completed()
	prevT, prevD, prevC := t0, d0, c0
	for range judgeWindows {
		if !SleepCtx(ctx, d/judgeWindows) {
			return j, false
		}
		now := s.Now()
		due, done := s.Pace.Due(now), s.Load.Completed()
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

// step holds rate and judges it: sustained, and whether ctx is still alive.
func (s *Search) step(ctx context.Context, rate int64) (ok, alive bool) {
	o := &s.Opts
	if !s.settle(ctx, 5*o.MaxRateStep) {
		return false, false
	}
	f0 := s.Load.Failed()
	s.Pace.Set(s.Now(), rate)
	if !SleepCtx(ctx, o.MaxRateStep/2) {
		return false, false
	}
	half := o.MaxRateStep - o.MaxRateStep/2
	j, alive := s.judge(ctx, half)
	if !alive {
		return false, false
	}
	extended := false
	if !j.ok() && j.settling(rate) {
		if j, alive = s.judge(ctx, half); !alive {
			return false, false
		}
		extended = true
	}
	stepDue := s.Pace.Due(s.Now()) - s.Pace.DueBefore()
	errs := s.Load.Failed() - f0
	ok = j.ok() && float64(errs) <= o.MaxRateErrors*float64(stepDue)
	s.Steps = append(s.Steps, Step{Rate: rate, OK: ok, Due: j.due, Done: j.done, Errs: errs, Lo: j.lo, Hi: j.hi})
	verdict := "sustained"
	if !ok {
		verdict = "not sustained"
	}
	ext := ""
	if extended {
		ext = ", judged again after the backlog was still settling"
	}
	s.logf("step %d: %s msgs/s for %s: judged %d due, %d completed (backlog %+d; completed %s–%s msgs/s per window%s), %d errors → %s",
		len(s.Steps), FmtRate(float64(rate)), o.MaxRateStep, j.due, j.done, j.due-j.done, FmtRate(j.lo), FmtRate(j.hi), ext, errs, verdict)
	return ok, true
}

// Run runs the search until it converged and then holds the found rate
// until ctx ends.
func (s *Search) Run(ctx context.Context) {
	o := &s.Opts
	lo, hi := int64(0), int64(0)
	rate := o.MaxRateStart
	for hi == 0 {
		ok, alive := s.step(ctx, rate)
		if !alive {
			s.finish(lo, false)
			return
		}
		if !ok {
			hi = rate
			break
		}
		lo = rate
		if rate > math.MaxInt64/4 {
			break
		}
		rate *= 2
	}
	for hi > 0 && hi-lo > 1 && (lo == 0 || float64(hi-lo)/float64(lo) > o.MaxRatePrecision) {
		mid := lo + (hi-lo)/2
		ok, alive := s.step(ctx, mid)
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
	s.Failed = hi
	if lo > 0 && s.settle(ctx, 5*o.MaxRateStep) {
		s.Pace.Set(s.Now(), lo)
		s.holdAt(ctx, lo)
	}
}

func (s *Search) finish(best int64, converged bool) {
	s.Best, s.Converged = best, converged
	if s.Found != nil {
		s.Found(best)
	}
	s.logf("highest sustained rate %s msgs/s", FmtRate(float64(best)))
}

// settle pauses the schedule and waits up to limit until nothing is in
// flight; false when ctx ended.
func (s *Search) settle(ctx context.Context, limit time.Duration) bool {
	s.Pace.Pause(s.Now())
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if s.Load.Completed() >= s.Load.Sent() {
			return true
		}
		if !SleepCtx(ctx, 10*time.Millisecond) {
			return false
		}
	}
	if ctx.Err() != nil {
		return false
	}
	s.logf("%d messages still in flight or unconsumed after %s; the next step starts anyway", s.Load.Sent()-s.Load.Completed(), limit)
	return true
}

// holdResult is what the final hold at the found rate achieved.
type holdResult struct {
	rate      int64
	secs      int
	span      time.Duration
	due, done int64
	lo, hi    float64 // per-second completion rates
}

// holdAt watches the final hold second by second until ctx ends.
func (s *Search) holdAt(ctx context.Context, rate int64) {
	h := &s.hold
	h.rate = rate
	t0 := s.Now()
	d0, c0 := s.Pace.Due(t0), s.Load.Completed()
	h.lo = math.Inf(1)
	prevT, prevC := t0, c0
	for SleepCtx(ctx, time.Second) {
		now := s.Now()
		c := s.Load.Completed()
		r := float64(c-prevC) / (now - prevT).Seconds()
		h.lo, h.hi = min(h.lo, r), max(h.hi, r)
		h.secs++
		h.span = now - t0
		h.due, h.done = s.Pace.Due(now)-d0, c-c0
		prevT, prevC = now, c
	}
}

// Held tells whether the final hold completed SustainRatio of its due
// messages (false when it was not held for a second).
func (s *Search) Held() bool {
	h := &s.hold
	return h.secs > 0 && float64(h.done) >= SustainRatio*float64(h.due)-1
}

func (h *holdResult) describe() string {
	if h.secs == 0 {
		return "the rest of -d was too short to hold it for a second"
	}
	got := float64(h.done) / h.span.Seconds()
	verdict := "it held"
	if !(float64(h.done) >= SustainRatio*float64(h.due)-1) {
		verdict = "it did NOT hold: treat it as an upper bound and re-run with a longer max-rate step"
	}
	return fmt.Sprintf("held for %s afterwards: %s msgs/s completed (per second %s–%s), backlog %+d → %s",
		h.span.Round(time.Second), FmtRate(got), FmtRate(h.lo), FmtRate(h.hi), h.due-h.done, verdict)
}

// Summary is the note line of the finished search.
func (s *Search) Summary() string {
	var b strings.Builder
	for i, st := range s.Steps {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(FmtRate(float64(st.Rate)))
		if st.OK {
			b.WriteString("✓")
		} else {
			b.WriteString("✗")
		}
	}
	verdict := "converged"
	switch {
	case !s.Converged && len(s.Steps) == 0:
		verdict = "not converged: -d ended before the first step was judged"
	case !s.Converged:
		verdict = "not converged before the end of -d: the highest rate a step sustained"
	case s.Failed > 0:
		verdict = fmt.Sprintf("converged: %s msgs/s was not sustained", FmtRate(float64(s.Failed)))
	}
	line := fmt.Sprintf("max sustainable rate %s msgs/s (%s; steps: %s", FmtRate(float64(s.Best)), verdict, b.String())
	if n := len(s.Steps); n > 0 {
		last := s.Steps[n-1]
		line += fmt.Sprintf("; last step completed %s–%s msgs/s per window", FmtRate(last.Lo), FmtRate(last.Hi))
	}
	line += ")"
	if s.Converged && s.Best > 0 {
		line += "; " + s.hold.describe()
	}
	return line
}
