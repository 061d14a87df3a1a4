package engine

import (
	"context"
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
}

func newSchedule(cfg Config) *schedule {
	s := &schedule{unit: float64(cfg.TimeUnit)}
	if cfg.Executor == ConstantArrivalRate {
		s.constRate = float64(cfg.Rate) / s.unit
		s.constLimit = cfg.Duration
		return s
	}
	s.stages = cfg.Stages
	s.segFrom = float64(cfg.StartRate) / s.unit
	return s
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

// arrivalRate starts iterations at the scheduled times on free VUs,
// allocating VUs up to MaxVUs and counting dropped_iterations when none is
// free. Iterations are timed from their intended start.
func (r *runner) arrivalRate(ctx context.Context, start time.Duration) error {
	pre, err := r.newVUs(ctx, r.cfg.PreAllocatedVUs)
	if err != nil {
		return err
	}
	loop, hard, cancel := r.stopContexts(ctx, r.cfg.TotalDuration())
	defer cancel()

	// A VU that is free holds one idle token. The dispatcher hands an
	// iteration over only after taking a token, so the buffered channel
	// never blocks and a free VU always gets the work.
	work := make(chan time.Duration, r.cfg.MaxVUs)
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
	var allocMu sync.Mutex // guards allocErrs, written by allocation goroutines
	allocErrs := r.deps.Agg.Recorder(r.idx, r.warmEnd)
	defer allocErrs.Flush()
	var allocating sync.WaitGroup
	sched := newSchedule(r.cfg)
	clock := r.deps.Clock
	if !r.deps.FakeTime {
		defer lockPreciseThread()()
	}
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
			break
		}
		if takeIdle() {
			work <- intended
			continue
		}
		if r.allocated.Load() < r.cfg.MaxVUs {
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
					allocErrs.Error(clock.Now(), "allocate VU: "+err.Error())
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
	return nil
}

func (r *runner) runScheduled(ctx context.Context, v *vuState, intended time.Duration) {
	r.active.Add(1)
	r.iterate(ctx, v, intended)
	r.active.Add(-1)
}
