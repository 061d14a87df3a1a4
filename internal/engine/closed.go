package engine

import (
	"context"
	"sync"
)

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
