package driver

import (
	"context"
	"sync"
	"time"
)

// Why a watchdog: a context whose Done channel is not nil costs the
// client libraries work on every operation (database/sql and
// modernc.org/sqlite start a goroutine per statement, pgx registers a
// context.AfterFunc, context.WithTimeout a timer). Drivers therefore run
// operations with a context whose Done is nil (context.WithoutCancel of
// the run's), and one Watchdog goroutine per driver enforces
// Options.Timeout and the run's cancellation instead: every tick it looks
// at the operation in progress on each connection and, once that one
// overran the timeout or its run context ended, calls the connection's
// interrupt function, every tick until the operation ends.

// MaxTick is the longest interval between two looks of a watchdog, so the
// latest a cancelled run's operation is interrupted; with a timeout the
// tick is the timeout/20, at least MinTick.
const (
	MaxTick = 10 * time.Millisecond
	MinTick = time.Millisecond
)

// TickFor is a watchdog's interval for an operation timeout (0: none).
func TickFor(timeout time.Duration) time.Duration {
	if timeout <= 0 {
		return MaxTick
	}
	return min(max(timeout/20, MinTick), MaxTick)
}

// Watchdog interrupts the overdue or cancelled operations of one driver's
// connections; one goroutine for all of them.
type Watchdog struct {
	timeout time.Duration
	base    time.Time // clock origin of Watch.deadline
	mu      sync.Mutex
	conns   map[*Watch]struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// NewWatchdog starts a watchdog for operations bounded by timeout (none
// when 0: it still interrupts the operations of a cancelled run).
func NewWatchdog(timeout time.Duration) *Watchdog {
	w := &Watchdog{timeout: timeout, base: time.Now(), conns: map[*Watch]struct{}{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go w.loop(TickFor(timeout))
	return w
}

func (w *Watchdog) loop(tick time.Duration) {
	defer close(w.done)
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		now := time.Since(w.base)
		w.mu.Lock()
		for s := range w.conns {
			s.check(now, w.timeout)
		}
		w.mu.Unlock()
	}
}

// Add watches a connection until Remove: interrupt stops the operation in
// progress on it. The watchdog calls interrupt every tick while that
// operation is overdue or cancelled, with since, how long ago it first
// found it so (0 on the first call); never after the operation's End.
func (w *Watchdog) Add(interrupt func(since time.Duration)) *Watch {
	s := &Watch{w: w, interrupt: interrupt}
	w.mu.Lock()
	w.conns[s] = struct{}{}
	w.mu.Unlock()
	return s
}

// Remove stops watching s; no interrupt reaches its connection after it.
func (w *Watchdog) Remove(s *Watch) {
	w.mu.Lock()
	delete(w.conns, s)
	w.mu.Unlock()
}

// Close stops the goroutine and waits for it; later calls do nothing.
func (w *Watchdog) Close() {
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

// Watch is the operation in progress on one connection, shared between
// the goroutine running it and the watchdog.
type Watch struct {
	w         *Watchdog
	interrupt func(since time.Duration)
	mu        sync.Mutex
	active    bool
	run       context.Context // the run's context of the operation
	deadline  time.Duration   // since w.base; 0: none
	cause     error           // why the watchdog interrupted it; nil: it did not
	causeAt   time.Duration   // when it found the cause, since w.base
}

// Begin marks the start of an operation of the run ctx.
func (s *Watch) Begin(ctx context.Context) {
	var deadline time.Duration
	if s.w.timeout > 0 {
		deadline = time.Since(s.w.base) + s.w.timeout
	}
	s.mu.Lock()
	s.active, s.run, s.deadline, s.cause = true, ctx, deadline, nil
	s.mu.Unlock()
}

// End marks the end of the operation and returns why the watchdog
// interrupted it (a *TimeoutError or the run's context error), or nil.
// No interrupt of this operation runs after End.
func (s *Watch) End() error {
	s.mu.Lock()
	cause := s.cause
	s.active, s.run, s.cause = false, nil, nil
	s.mu.Unlock()
	return cause
}

// check interrupts the operation in progress if it is overdue at now or
// its run context ended.
func (s *Watch) check(now, timeout time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.active {
		return
	}
	if s.cause == nil {
		switch {
		case s.run.Err() != nil:
			s.cause = s.run.Err()
		case s.deadline > 0 && now >= s.deadline:
			s.cause = &TimeoutError{After: timeout}
		}
		s.causeAt = now
	}
	if s.cause != nil {
		s.interrupt(now - s.causeAt)
	}
}

// Quiet caches context.WithoutCancel of the last run context it was given:
// the run's values, a Done that is nil.
type Quiet struct{ run, quiet context.Context }

// Of returns ctx without its cancellation and deadline.
func (q *Quiet) Of(ctx context.Context) context.Context {
	if ctx != q.run {
		q.run, q.quiet = ctx, context.WithoutCancel(ctx)
	}
	return q.quiet
}
