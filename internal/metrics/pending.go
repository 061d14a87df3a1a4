package metrics

import (
	"sync"
	"sync/atomic"
	"time"
)

// Pending holds measurements taken off the VUs (by background goroutines:
// samplers, consumers, churn) until a VU records them on its Recorder with
// Drain. The zero value is ready; it is safe for concurrent use, and Drain
// costs one atomic load when nothing is pending.
type Pending struct {
	mu     sync.Mutex
	counts map[ID]int64
	trends []pendingTrend
	errs   []string
	any    atomic.Bool
}

type pendingTrend struct {
	id ID
	v  int64
}

// Add adds n to counter id.
func (p *Pending) Add(id ID, n int64) {
	p.mu.Lock()
	if p.counts == nil {
		p.counts = map[ID]int64{}
	}
	p.counts[id] += n
	p.mu.Unlock()
	p.any.Store(true)
}

// Trend adds sample v to trend id.
func (p *Pending) Trend(id ID, v int64) {
	p.mu.Lock()
	p.trends = append(p.trends, pendingTrend{id, v})
	p.mu.Unlock()
	p.any.Store(true)
}

// Error counts one error with message msg.
func (p *Pending) Error(msg string) {
	p.mu.Lock()
	p.errs = append(p.errs, msg)
	p.mu.Unlock()
	p.any.Store(true)
}

// Drainer is what Drain records on: a VU's recorder (Recorder, or the
// vu.Recorder of an iteration).
type Drainer interface {
	Add(id ID, at time.Duration, n int64)
	Trend(id ID, at time.Duration, v int64)
	Error(at time.Duration, msg string)
}

// Drain records everything pending on r at run offset at and empties p.
// It reports whether anything was recorded.
func (p *Pending) Drain(r Drainer, at time.Duration) bool {
	if !p.any.Load() {
		return false
	}
	p.mu.Lock()
	counts, trends, errs := p.counts, p.trends, p.errs
	p.counts, p.trends, p.errs = nil, nil, nil
	p.any.Store(false)
	p.mu.Unlock()
	for id, n := range counts {
		r.Add(id, at, n)
	}
	for _, t := range trends {
		r.Trend(t.id, at, t.v)
	}
	for _, e := range errs {
		r.Error(at, e)
	}
	return true
}
