package msgload

import (
	"context"
	"sync"
	"time"
)

// Pacer is an arrival-rate schedule whose rate can change: it hands the
// intended send times (run offsets) to VUs over Slots, late when no VU is
// free, so that publish_delay and responseTime stay honest. It is the one
// schedule of both families' MaxRate scenarios. Build it with NewPacer;
// Run it in one goroutine; Set, Pause and Due are safe for concurrent use.
type Pacer struct {
	// Slots carries the intended send time of each due message.
	Slots chan time.Duration
	now   func() time.Duration

	mu      sync.Mutex
	base    time.Duration // start of the current rate
	rate    int64         // msgs/s; 0: paused
	dueOld  int64         // due before base
	changed chan struct{} // closed when the rate changes
}

// NewPacer returns a paused pacer on the run clock now.
func NewPacer(now func() time.Duration) *Pacer {
	return &Pacer{Slots: make(chan time.Duration), now: now, changed: make(chan struct{})}
}

// dueAt is how many messages of the current rate are due at now.
func (p *Pacer) dueAt(now time.Duration) int64 {
	if p.rate == 0 || now < p.base {
		return 0
	}
	return int64(float64(now-p.base)*float64(p.rate)/float64(time.Second)) + 1
}

// DueBefore is how many messages were due when the current rate was set.
func (p *Pacer) DueBefore() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dueOld
}

// Due is how many messages the schedule has called for until now.
func (p *Pacer) Due(now time.Duration) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dueOld + p.dueAt(now)
}

// Set changes the rate to rate msgs/s from run offset now (0 pauses).
func (p *Pacer) Set(now time.Duration, rate int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dueOld += p.dueAt(now)
	p.base, p.rate = now, rate
	close(p.changed)
	p.changed = make(chan struct{})
}

// Pause stops handing out slots from now.
func (p *Pacer) Pause(now time.Duration) { p.Set(now, 0) }

func (p *Pacer) current() (time.Duration, int64, chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.base, p.rate, p.changed
}

// Run hands out slots until ctx ends.
func (p *Pacer) Run(ctx context.Context) {
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
			if wait := at - p.now(); wait > 0 {
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
			case p.Slots <- at:
			case <-changed:
				break slots
			case <-ctx.Done():
				return
			}
		}
	}
}

// Next waits for the intended send time of the next due message, at most
// until timer fires (a VU's reused timer; Next resets and stops it). ok is
// false when the timer fired first (the pacer is paused between steps);
// err is ctx's error when ctx ended.
func (p *Pacer) Next(ctx context.Context, timer *time.Timer, wait time.Duration) (intended time.Duration, ok bool, err error) {
	timer.Reset(wait)
	select {
	case intended = <-p.Slots:
		timer.Stop()
		return intended, true, nil
	case <-timer.C:
		return 0, false, nil
	case <-ctx.Done():
		timer.Stop()
		return 0, false, ctx.Err()
	}
}
