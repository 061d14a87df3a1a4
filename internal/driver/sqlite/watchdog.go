package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"sync"
	"time"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/stampede-bench/stampede/internal/driver"
)

// Why a watchdog: a context whose Done channel is not nil makes
// database/sql (Rows.awaitDone) and modernc.org/sqlite (interruptOnDone)
// each start a goroutine for every statement, which costs about a third
// of a point query. Reading statements therefore run with a context
// whose Done is nil, and one watchdog goroutine per DB enforces the
// operation timeout and the run's cancellation instead: every tick it
// looks at the operation in progress on each connection and, once that
// one overran Options.Timeout or its run context ended, calls
// sqlite3_interrupt on the connection (again every tick until the
// operation returns, since SQLite drops an interrupt that arrives before
// the statement's first step).

// MaxTick is the longest interval between two looks of the watchdog, so
// the latest a cancelled run's statement is interrupted; with a timeout
// the tick is Options.Timeout/20, at least MinTick.
const (
	MaxTick = 10 * time.Millisecond
	MinTick = time.Millisecond
)

// watchdog interrupts the overdue or cancelled operations of a DB's
// connections; one goroutine for the whole DB.
type watchdog struct {
	timeout time.Duration
	base    time.Time // clock origin of opState.deadline
	mu      sync.Mutex
	conns   map[*opState]struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// tickFor is the watchdog's interval for an operation timeout (0: none).
func tickFor(timeout time.Duration) time.Duration {
	if timeout <= 0 {
		return MaxTick
	}
	return min(max(timeout/20, MinTick), MaxTick)
}

func newWatchdog(timeout time.Duration) *watchdog {
	w := &watchdog{timeout: timeout, base: time.Now(), conns: map[*opState]struct{}{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go w.loop(tickFor(timeout))
	return w
}

func (w *watchdog) loop(tick time.Duration) {
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

// add watches s until remove.
func (w *watchdog) add(s *opState) {
	w.mu.Lock()
	w.conns[s] = struct{}{}
	w.mu.Unlock()
}

// remove stops watching s; no interrupt reaches s's connection after it.
func (w *watchdog) remove(s *opState) {
	w.mu.Lock()
	delete(w.conns, s)
	w.mu.Unlock()
}

// close stops the goroutine and waits for it; later calls do nothing.
func (w *watchdog) close() {
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

// opState is the operation in progress on one connection, shared between
// the VU running it and the watchdog.
type opState struct {
	w         *watchdog
	interrupt func() // sqlite3_interrupt on this connection
	mu        sync.Mutex
	active    bool
	run       context.Context // the run's context of the operation
	deadline  time.Duration   // since w.base; 0: none
	cause     error           // why the watchdog interrupted it; nil: it did not
}

// begin marks the start of an operation of the run ctx.
func (s *opState) begin(ctx context.Context) {
	var deadline time.Duration
	if s.w.timeout > 0 {
		deadline = time.Since(s.w.base) + s.w.timeout
	}
	s.mu.Lock()
	s.active, s.run, s.deadline, s.cause = true, ctx, deadline, nil
	s.mu.Unlock()
}

// end marks the end of the operation and returns why the watchdog
// interrupted it (a *driver.TimeoutError or the run's context error), or
// nil.
func (s *opState) end() error {
	s.mu.Lock()
	cause := s.cause
	s.active, s.run, s.cause = false, nil, nil
	s.mu.Unlock()
	return cause
}

// check interrupts the operation in progress if it is overdue at now or
// its run context ended.
func (s *opState) check(now, timeout time.Duration) {
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
			s.cause = &driver.TimeoutError{After: timeout}
		}
	}
	if s.cause != nil {
		s.interrupt()
	}
}

// errNoHandle is returned when the modernc.org/sqlite connection does not
// have the shape interrupter relies on (another version of the module).
var errNoHandle = errors.New("sqlite: cannot reach the connection handle to interrupt it")

// interrupter returns a function that calls sqlite3_interrupt on c's
// driver connection. modernc.org/sqlite exports no interrupt, so it
// reads the handle (field db of its connection) under the connection's
// own mutex, the one its Close takes, so that it never interrupts a
// closed handle. It fails with errNoHandle when the connection has no
// such field or lock.
func interrupter(c *sql.Conn) (func(), error) {
	var dc any
	if err := c.Raw(func(x any) error { dc = x; return nil }); err != nil {
		return nil, err
	}
	lk, ok := dc.(sync.Locker)
	v := reflect.ValueOf(dc)
	if !ok || v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, errNoHandle
	}
	f := v.Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Uintptr {
		return nil, errNoHandle
	}
	return func() {
		lk.Lock()
		defer lk.Unlock()
		if db := uintptr(f.Uint()); db != 0 {
			// A TLS of its own: the connection's may be in use by the
			// statement being interrupted.
			tls := libc.NewTLS()
			sqlite3.Xsqlite3_interrupt(tls, db)
			tls.Close()
		}
	}, nil
}
