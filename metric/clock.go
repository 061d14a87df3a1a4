package metric

import "time"

// Clock is the monotonic time base of a run: Now is the offset since the
// run started. Reading it costs one monotonic clock read (time.Since).
// The zero Clock starts at the zero time; make one with NewClock or
// ClockAt.
type Clock struct {
	base time.Time
}

// NewClock starts a clock at the current time.
func NewClock() Clock { return Clock{base: time.Now()} }

// ClockAt returns a clock whose zero is t (e.g. a common --start-at).
func ClockAt(t time.Time) Clock { return Clock{base: t} }

// Now returns the time since the clock's start.
func (c Clock) Now() time.Duration { return time.Since(c.base) }

// Wall converts a run offset to wall-clock time.
func (c Clock) Wall(d time.Duration) time.Time { return c.base.Add(d) }

// Base is the wall time of offset zero.
func (c Clock) Base() time.Time { return c.base }
