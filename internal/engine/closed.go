package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// constantVUs loops cfg.VUs VUs for cfg.Duration.
func (r *runner) constantVUs(ctx context.Context, start time.Duration) error {
	vus, err := r.newVUs(ctx, r.cfg.VUs)
	if err != nil {
		return err
	}
	loop, hard, cancel := r.stopContexts(ctx, r.cfg.Duration)
	defer cancel()
	// The duration counts from when the VUs exist, as the stop contexts
	// do: allocating a million VUs must not eat the measured time.
	end := max(start, r.deps.Clock.Now()) + r.cfg.Duration
	r.runEach(vus, func(v *vuState) {
		now := r.deps.Clock.Now()
		for now < end && running(loop, hard) {
			now = r.iterate(hard, v, closedNext(now))
		}
	})
	return nil
}

// perVUIterations lets each of cfg.VUs VUs run cfg.Iterations iterations,
// within cfg.MaxDuration.
func (r *runner) perVUIterations(ctx context.Context, _ time.Duration) error {
	vus, err := r.newVUs(ctx, r.cfg.VUs)
	if err != nil {
		return err
	}
	loop, hard, cancel := r.stopContexts(ctx, r.cfg.MaxDuration)
	defer cancel()
	r.runEach(vus, func(v *vuState) {
		now := r.deps.Clock.Now()
		for i := int64(0); i < r.cfg.Iterations && running(loop, hard); i++ {
			now = r.iterate(hard, v, closedNext(now))
		}
	})
	return nil
}

// sharedIterations lets cfg.VUs VUs share cfg.Iterations iterations, within
// cfg.MaxDuration.
func (r *runner) sharedIterations(ctx context.Context, _ time.Duration) error {
	vus, err := r.newVUs(ctx, r.cfg.VUs)
	if err != nil {
		return err
	}
	loop, hard, cancel := r.stopContexts(ctx, r.cfg.MaxDuration)
	defer cancel()
	var next atomic.Int64
	r.runEach(vus, func(v *vuState) {
		now := r.deps.Clock.Now()
		for running(loop, hard) && next.Add(1) <= r.cfg.Iterations {
			now = r.iterate(hard, v, closedNext(now))
		}
	})
	return nil
}

// running tells a VU loop to go on: neither may new iterations start
// (loop) nor have running ones been interrupted (hard). Checking hard too
// matters: cancelling the parent closes hard before loop, and VUs whose
// iterations return at once must not spin in that window — 100,000 of them
// spinning starve the goroutine that is cancelling loop.
func running(loop, hard context.Context) bool {
	return loop.Err() == nil && hard.Err() == nil
}

// runEach runs body for every VU in its own goroutine and waits.
func (r *runner) runEach(vus []*vuState, body func(*vuState)) {
	var wg sync.WaitGroup
	for _, v := range vus {
		wg.Add(1)
		r.active.Add(1)
		go func() {
			defer wg.Done()
			defer r.active.Add(-1)
			body(v)
			v.rec.Flush()
		}()
	}
	wg.Wait()
}
