package engine

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
	"github.com/stampede-bench/stampede/vu"
)

// running tells a VU loop to go on: neither may new iterations start
// (loop) nor have running ones been interrupted (hard). Checking hard too
// matters: cancelling the parent closes hard before loop, and VUs whose
// iterations return at once must not spin in that window — 100,000 of them
// spinning starve the goroutine that is cancelling loop.
func running(loop, hard context.Context) bool {
	return loop.Err() == nil && hard.Err() == nil
}

// runEach runs body for every VU (with its index in vus) in its own
// goroutine and waits.
func (r *runner) runEach(vus []*vuState, body func(i int, v *vuState)) {
	var wg sync.WaitGroup
	for i, v := range vus {
		wg.Add(1)
		r.active.Add(1)
		go func() {
			defer wg.Done()
			defer r.active.Add(-1)
			body(i, v)
			v.rec.Flush()
		}()
	}
	wg.Wait()
}

// runClosed runs closed-model VUs: each starts its next iteration when
// its last one ended, while running(loop, hard) and more(i, now) (i is
// the VU's index in vus; more may count what it allows). A scenario whose
// VUs can share an event loop (vu.Multiplexed) runs them as the steps of
// one loop per processor; any other a goroutine per VU.
func (r *runner) runClosed(vus []*vuState, loop, hard context.Context, more func(i int, now time.Duration) bool) {
	if m, ok := r.spec.Scenario.(vu.Multiplexed); ok && len(vus) > 0 {
		if loops := newLoops(m, min(runtime.GOMAXPROCS(0), len(vus))); loops != nil {
			r.runLoops(loops, vus, loop, hard, more)
			return
		}
	}
	r.runEach(vus, func(i int, v *vuState) {
		now := r.deps.Clock.Now()
		for running(loop, hard) && more(i, now) {
			now = r.iterate(hard, v, closedNext(now))
		}
	})
}

// newLoops makes n loops of m, or nil when m has none for this run (or
// one failed: the VUs then run as goroutines).
func newLoops(m vu.Multiplexed, n int) []vu.Loop {
	var loops []vu.Loop
	for range n {
		lp, err := m.NewLoop()
		if err != nil || lp == nil {
			for _, l := range loops {
				_ = l.Close()
			}
			return nil
		}
		loops = append(loops, lp)
	}
	return loops
}

// runLoops spreads vus over loops (VU i to loop i mod n) and drives each
// loop from a goroutine of its own.
func (r *runner) runLoops(loops []vu.Loop, vus []*vuState, loop, hard context.Context, more func(int, time.Duration) bool) {
	var wg sync.WaitGroup
	for k, lp := range loops {
		var mine []int
		for i := k; i < len(vus); i += len(loops) {
			mine = append(mine, i)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer lp.Close()
			r.drive(lp, vus, mine, loop, hard, more)
		}()
	}
	wg.Wait()
}

// stepVU is a VU's state in a loop: its iteration's start, whether it is
// in flight, and the end of its back-off wait.
type stepVU struct {
	v          *vuState
	i          int // index in the executor's VUs
	k          int // index in the loop's
	start      time.Duration
	waitFrom   time.Duration
	resume     time.Duration // > 0: backing off until then
	scheduled  bool
	inFlight   bool
	finishedUp bool
}

// shareRecording gives the VUs vus[i], i in mine, one recorder and one
// request writer for as long as they run in a loop: one goroutine drives
// them all, so one batch (kept in the cache) takes every VU's samples
// instead of a batch each (5,000 VUs held 40 MB of them), and the
// per-request log's rows come in the order the requests ended. It returns
// what hands the shared ones over and gives each VU its own back, for
// closeVUs.
func (r *runner) shareRecording(mine []int, vus []*vuState) (restore func()) {
	rec := r.deps.Agg.Recorder(r.idx, r.warmEnd)
	var log reqlog.Writer
	var flusher reqlog.Flusher
	if r.deps.Log != nil {
		log = r.deps.Log.Writer(r.spec.Name)
		flusher, _ = log.(reqlog.Flusher)
	}
	type own struct {
		rec     *metrics.Recorder
		log     reqlog.Writer
		flusher reqlog.Flusher
	}
	owns := make([]own, len(mine))
	for k, i := range mine {
		v := vus[i]
		owns[k] = own{v.rec, v.it.Log(), v.flusher}
		v.rec, v.flusher = rec, flusher
		v.it.Init(v.id, rec, r.deps.Clock, log)
	}
	return func() {
		rec.Flush()
		if log != nil {
			_ = log.Close()
		}
		for k, i := range mine {
			v := vus[i]
			v.rec, v.flusher = owns[k].rec, owns[k].flusher
			v.it.Init(v.id, v.rec, r.deps.Clock, owns[k].log)
		}
	}
}

// loopPoll bounds one wait of a loop, so that it sees the stop and the
// VUs whose back-off ended.
const loopPoll = 50 * time.Millisecond

// drive runs the closed-model iterations of the VUs vus[i] for i in mine
// as steps of lp, as runEach's goroutines would: a VU starts its next
// iteration when its last ended, while running and more.
func (r *runner) drive(lp vu.Loop, vus []*vuState, mine []int, loop, hard context.Context, more func(int, time.Duration) bool) {
	steps := make([]stepVU, len(mine))
	defer r.shareRecording(mine, vus)()
	live, waiting := 0, 0 // VUs not done; of them, backing off
	for k, i := range mine {
		s := &steps[k]
		s.v, s.i, s.k = vus[i], i, k
		if err := lp.Add(s.v.vu, k); err != nil {
			s.finishedUp = true // cannot run in the loop: counted as never iterating
			continue
		}
		live++
		r.active.Add(1)
	}
	done := func(s *stepVU) {
		s.finishedUp = true
		live--
		r.active.Add(-1)
		s.v.rec.Flush()
	}
	// park has s back off for wait from now.
	park := func(s *stepVU, now, wait time.Duration) {
		s.waitFrom, s.resume = now, now+wait
		waiting++
	}
	// next starts s's iterations until one waits in the loop, s must back
	// off, or s is done.
	next := func(s *stepVU, now time.Duration) {
		for running(loop, hard) && more(s.i, now) {
			s.start, s.scheduled = r.begin(hard, s.v, closedNext(now))
			finished, err := lp.Start(hard, s.k, &s.v.it)
			if !finished {
				s.inFlight = true
				return
			}
			var wait time.Duration
			if now, wait = r.finish(hard, s.v, s.start, s.scheduled, err); wait > 0 {
				park(s, now, wait)
				return
			}
		}
		done(s)
	}
	ended := func(k int, err error) {
		s := &steps[k]
		s.inFlight = false
		now, wait := r.finish(hard, s.v, s.start, s.scheduled, err)
		if wait > 0 {
			park(s, now, wait)
			return
		}
		next(s, now)
	}
	now := r.deps.Clock.Now()
	for k := range steps {
		if !steps[k].finishedUp {
			next(&steps[k], now)
		}
	}
	for live > 0 && hard.Err() == nil {
		d := loopPoll
		if waiting > 0 {
			now = r.deps.Clock.Now()
			for k := range steps {
				if s := &steps[k]; s.resume > 0 {
					d = min(d, max(s.resume-now, 0))
				}
			}
		}
		if err := lp.Wait(hard, d, ended); err != nil {
			break
		}
		if waiting == 0 {
			continue
		}
		now = r.deps.Clock.Now()
		for k := range steps {
			s := &steps[k]
			if s.resume > 0 && (now >= s.resume || !running(loop, hard)) {
				s.resume = 0
				waiting--
				r.countBackoff(s.waitFrom, now)
				next(s, now)
			}
		}
	}
	// The graceful stop ran out (or the run was stopped): the iterations
	// still in flight are cut, as runEach's are when their context ends.
	for k := range steps {
		s := &steps[k]
		if s.finishedUp {
			continue
		}
		if s.inFlight {
			r.finish(hard, s.v, s.start, s.scheduled, hard.Err())
		}
		done(s)
	}
}
