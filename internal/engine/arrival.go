package engine

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// schedule yields the intended start offsets of an arrival-rate executor.
type schedule struct {
	unit   float64 // TimeUnit in ns
	start  float64 // rate at t=0, per unit
	stages []Stage
	k      int64 // iterations issued so far
	// segment state for ramping schedules
	seg        int
	segStart   float64 // ns offset of the current segment
	segCount   float64 // iterations before the current segment
	segFrom    float64 // rate at segment start, per ns
	constRate  float64 // per ns, for constant schedules
	constLimit time.Duration
	rampFrom   float64 // rate at t=0, per ns, for ramping schedules
}

// constantSchedule issues rate iterations per unit for d.
func constantSchedule(rate int64, unit, d time.Duration) *schedule {
	s := &schedule{unit: float64(unit)}
	s.constRate = float64(rate) / s.unit
	s.constLimit = d
	return s
}

// rampingSchedule issues iterations at a rate per unit going from
// startRate linearly to each stage's target.
func rampingSchedule(startRate int64, stages []Stage, unit time.Duration) *schedule {
	s := &schedule{unit: float64(unit)}
	s.stages = stages
	s.segFrom = float64(startRate) / s.unit
	s.rampFrom = s.segFrom
	return s
}

// issued is the number of iterations the schedule starts before offset t
// (to within one: the area under the rate), without consuming it.
func (s *schedule) issued(t time.Duration) int64 {
	if t <= 0 {
		return 0
	}
	if s.stages == nil {
		return int64(math.Ceil(float64(min(t, s.constLimit))*s.constRate - 1e-6))
	}
	left, area, from := float64(t), 0.0, s.rampFrom
	for _, st := range s.stages {
		d := float64(st.Duration)
		to := float64(st.Target) / s.unit
		x := min(left, d)
		area += from*x + (to-from)/(2*d)*x*x
		left -= x
		from = to
		if left <= 0 {
			break
		}
	}
	return int64(math.Ceil(area - 1e-6))
}

// next returns the intended offset of the next iteration, or false when the
// schedule is over.
func (s *schedule) next() (time.Duration, bool) {
	k := float64(s.k)
	s.k++
	if s.stages == nil {
		t := time.Duration(k / s.constRate)
		return t, t < s.constLimit
	}
	for s.seg < len(s.stages) {
		st := s.stages[s.seg]
		d := float64(st.Duration)
		to := float64(st.Target) / s.unit
		// Iterations in this segment: the area under the linear rate.
		n := (s.segFrom + to) / 2 * d
		c := k - s.segCount // 0-based index within the segment
		if c < n {
			return time.Duration(s.segStart + solveRamp(s.segFrom, to, d, c)), true
		}
		s.seg++
		s.segStart += d
		s.segCount += n
		s.segFrom = to
	}
	return 0, false
}

// solveRamp returns the time t in [0,d] at which a rate rising linearly from
// r0 to r1 (per ns) over d has issued c iterations.
func solveRamp(r0, r1, d, c float64) float64 {
	a := (r1 - r0) / (2 * d)
	if math.Abs(a) < 1e-30 {
		return c / r0
	}
	disc := r0*r0 + 4*a*c
	if disc < 0 {
		disc = 0
	}
	return (-r0 + math.Sqrt(disc)) / (2 * a)
}

// preciseWait is the longest wait the dispatcher sleeps with preciseSleep
// rather than a Go timer.
const preciseWait = 2 * time.Millisecond

// arrivalVUs bounds the VUs of an arrival-rate executor: Pre VUs are
// allocated before the first iteration, at most Max in all.
type arrivalVUs struct{ Pre, Max int64 }

// arrivalRate starts iterations at the times of sched on free VUs for at
// most total, allocating VUs up to b.Max and counting dropped_iterations
// when none is free. Iterations are timed from their intended start.
func (r *runner) arrivalRate(ctx context.Context, start time.Duration, b arrivalVUs, total time.Duration, sched *schedule) error {
	pre, err := r.newVUs(ctx, b.Pre)
	if err != nil {
		return err
	}
	loop, hard, cancel := r.stopContexts(ctx, total)
	defer cancel()

	// A VU that is free holds one idle token. The dispatcher hands an
	// iteration over only after taking a token, so the buffered channel
	// never blocks and a free VU always gets the work.
	work := make(chan time.Duration, b.Max)
	var idle atomic.Int64
	idle.Store(int64(len(pre)))
	var wg sync.WaitGroup
	serve := func(v *vuState, first time.Duration) {
		defer wg.Done()
		defer v.rec.Flush()
		if first >= 0 {
			r.runScheduled(hard, v, first)
			idle.Add(1)
		}
		for {
			select {
			case intended := <-work:
				if hard.Err() != nil {
					return // interrupted: drop the work, do not spin
				}
				r.runScheduled(hard, v, intended)
				idle.Add(1)
			case <-loop.Done():
				return
			}
		}
	}
	for _, v := range pre {
		wg.Add(1)
		go serve(v, -1)
	}
	takeIdle := func() bool {
		for {
			n := idle.Load()
			if n <= 0 {
				return false
			}
			if idle.CompareAndSwap(n, n-1) {
				return true
			}
		}
	}

	disp := r.deps.Agg.Recorder(r.idx, r.warmEnd) // owned by this goroutine
	defer disp.Flush()
	// An iteration whose VU could not be allocated never reached the
	// target: it is dropped (not a failed operation, which errors count),
	// and a note gives the count and the first cause.
	var allocMu sync.Mutex // guards allocErrs, allocFailed, allocCause
	allocErrs := r.deps.Agg.Recorder(r.idx, r.warmEnd)
	defer allocErrs.Flush()
	var allocFailed int64
	var allocCause string
	defer func() {
		if allocFailed > 0 {
			r.deps.Agg.Note(r.idx, fmt.Sprintf("%d iterations dropped: a VU could not be allocated: %s", allocFailed, allocCause))
		}
	}()
	var allocating sync.WaitGroup
	clock := r.deps.Clock
	if !r.deps.FakeTime {
		defer lockPreciseThread()()
	}
	// What the schedule planned after the warm-up, for the verdict's
	// dropped and rate-missed rules. An interrupted run planned only what
	// it reached.
	defer func() {
		until := total
		if ctx.Err() != nil {
			until = min(clock.Now()-start, total)
		}
		warm := r.warmEnd - start
		if n := sched.issued(until) - sched.issued(warm); n > 0 {
			r.deps.Agg.Schedule(r.idx, n, until-warm, 0)
		}
	}()
	for {
		off, ok := sched.next()
		if !ok {
			break
		}
		intended := start + off
		if wait := intended - clock.Now(); wait > 0 {
			if wait <= preciseWait && !r.deps.FakeTime {
				preciseSleep(wait)
			} else {
				t := time.NewTimer(wait)
				select {
				case <-t.C:
				case <-loop.Done():
					t.Stop()
				}
			}
		}
		if loop.Err() != nil {
			if ctx.Err() == nil {
				// The duration ended with this iteration and maybe more
				// still due before it: the dispatcher fell behind (a
				// loaded machine). They were planned and never started:
				// dropped, as k6 counts what its scheduler could not start.
				late := int64(0)
				for ; ok && off < total; off, ok = sched.next() {
					late++
				}
				if late > 0 {
					disp.Add(metrics.IDDropped, clock.Now(), late)
					r.deps.Agg.Note(r.idx, fmt.Sprintf("%d iterations dropped: the generator fell behind the schedule at the end of the run", late))
				}
			}
			break
		}
		if takeIdle() {
			work <- intended
			continue
		}
		if r.allocated.Load() < b.Max {
			// Allocate in the background so the schedule keeps its pace;
			// the new VU runs this iteration first.
			r.allocated.Add(1) // reserve; newVU adds its own count
			wg.Add(1)
			allocating.Add(1)
			go func() {
				defer allocating.Done()
				v, err := r.newVU(hard)
				r.allocated.Add(-1)
				if err != nil {
					wg.Done()
					allocMu.Lock()
					allocErrs.Add(metrics.IDDropped, clock.Now(), 1)
					if allocFailed++; allocCause == "" {
						allocCause = err.Error()
					}
					allocMu.Unlock()
					return
				}
				serve(v, intended)
			}()
			continue
		}
		disp.Add(metrics.IDDropped, clock.Now(), 1)
	}
	allocating.Wait()
	wg.Wait()
	// Work handed to a VU that saw the end first was never started.
	if n := len(work); n > 0 {
		disp.Add(metrics.IDDropped, clock.Now(), int64(n))
	}
	return nil
}

func (r *runner) runScheduled(ctx context.Context, v *vuState, intended time.Duration) {
	r.active.Add(1)
	r.iterate(ctx, v, intended)
	r.active.Add(-1)
}
