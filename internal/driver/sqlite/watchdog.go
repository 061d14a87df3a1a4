package sqlite

import (
	"database/sql"
	"errors"
	"reflect"
	"sync"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Reading statements run with a context whose Done is nil: a cancellable
// one makes database/sql (Rows.awaitDone) and modernc.org/sqlite
// (interruptOnDone) each start a goroutine for every statement, about a
// third of a point query. The DB's driver.Watchdog enforces the timeout
// and the run's end instead, calling sqlite3_interrupt on the connection
// every tick until the statement returns, since SQLite drops an interrupt
// that arrives before the statement's first step.

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
