package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/executor"
)

// rampTick is how often ramping executors recompute their target.
const rampTick = 50 * time.Millisecond

// stageValue is the linear interpolation of stages at offset t from the
// start (start is the value at t=0). It returns false once past the end.
func stageValue(start int64, stages []Stage, t time.Duration) (float64, bool) {
	from := float64(start)
	for _, s := range stages {
		if t < s.Duration {
			return from + (float64(s.Target)-from)*float64(t)/float64(s.Duration), true
		}
		t -= s.Duration
		from = float64(s.Target)
	}
	return from, false
}

// runRampingVUs varies the number of looping VUs along e.Stages. A VU above the
// current target finishes its iteration and then waits.
func runRampingVUs(ctx context.Context, e executor.RampingVUsConfig, r *runner, start time.Duration) error {
	vus, err := r.newVUs(ctx, e.MaxVUsNeeded())
	if err != nil {
		return err
	}
	total := e.TotalDuration()
	loop, hard, cancel := r.stopContexts(ctx, total)
	defer cancel()
	end := start + total

	var target atomic.Int64
	target.Store(e.StartVUs)
	var mu sync.Mutex
	changed := make(chan struct{})
	wait := func() <-chan struct{} { mu.Lock(); defer mu.Unlock(); return changed }
	setTarget := func(n int64) {
		if target.Swap(n) != n {
			mu.Lock()
			close(changed)
			changed = make(chan struct{})
			mu.Unlock()
		}
	}
	go func() {
		t := time.NewTicker(rampTick)
		defer t.Stop()
		for {
			select {
			case <-loop.Done():
				return
			case <-t.C:
				v, _ := stageValue(e.StartVUs, e.Stages, r.deps.Clock.Now()-start)
				setTarget(int64(v)) // k6 floors fractional VUs
			}
		}
	}()

	var wg sync.WaitGroup
	for _, v := range vus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer v.rec.Flush()
			for now := start; now < end && running(loop, hard); {
				if int64(v.id) >= target.Load() {
					v.flush() // ramped down: idle until the target rises
					ch := wait()
					if int64(v.id) < target.Load() {
						continue
					}
					select {
					case <-ch:
					case <-loop.Done():
					}
					continue
				}
				r.active.Add(1)
				now = r.iterate(hard, v, -1)
				r.active.Add(-1)
			}
		}()
	}
	wg.Wait()
	return nil
}
