package sqlite

import (
	"context"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
)

// endless never finishes on its own.
const endless = "with recursive r(n) as (select 1 union all select n+1 from r) select count(*) from r"

// Every connection of this module version can be interrupted by the
// watchdog; if a modernc.org/sqlite upgrade changes the shape interrupter
// relies on, reads fall back to a goroutine per query and this fails.
func TestInterrupterReachesHandle(t *testing.T) {
	d := newDB(t, 1, driver.Options{PoolSize: 1, Timeout: time.Second})
	c, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.(*Conn).op == nil {
		t.Fatal("no watchdog state: interrupter could not reach the connection handle")
	}
}

// A cancelled run stops a running read promptly and reports the run's
// own error, with and without an operation timeout.
func TestCancelInterruptsRead(t *testing.T) {
	for _, timeout := range []time.Duration{0, time.Minute} {
		d := newDB(t, 1, driver.Options{PoolSize: 1, Timeout: timeout})
		c, err := d.Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		res := c.Do(ctx, &driver.Op{Query: endless})
		took := time.Since(start)
		if res.Err != context.Canceled {
			t.Errorf("timeout %v: err = %v, want context.Canceled", timeout, res.Err)
		}
		if took > time.Second {
			t.Errorf("timeout %v: the cancelled query ran %v, want < 1s", timeout, took)
		}
		// The connection is usable afterwards: a stray interrupt does not
		// hit the next statement.
		if res := c.Do(t.Context(), &driver.Op{Query: "select id from t"}); res.Err != nil || res.Rows != 1 {
			t.Errorf("timeout %v: after cancel: %d rows, %v", timeout, res.Rows, res.Err)
		}
		c.Close()
	}
}

// Reads time out one after another on the same connection, each
// reported as a timeout, and a fast read between them succeeds.
func TestTimeoutRepeats(t *testing.T) {
	d := newDB(t, 1, driver.Options{PoolSize: 1, Timeout: 30 * time.Millisecond})
	c, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range 3 {
		start := time.Now()
		res := c.Do(t.Context(), &driver.Op{Query: endless})
		if res.Err == nil || res.Err.Error() != "timeout after 30ms" {
			t.Fatalf("round %d: err = %v, want timeout after 30ms", i, res.Err)
		}
		if took := time.Since(start); took < 30*time.Millisecond || took > time.Second {
			t.Errorf("round %d: timed out after %v, want 30ms..1s", i, took)
		}
		if res := c.Do(t.Context(), &driver.Op{Query: "select id from t"}); res.Err != nil || res.Rows != 1 {
			t.Fatalf("round %d: fast read: %d rows, %v", i, res.Rows, res.Err)
		}
	}
}

// goroutinesCreated is the process's count of goroutines ever created.
func goroutinesCreated(t *testing.T) uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Fatal("runtime/metrics has no /sched/goroutines-created")
	}
	return s[0].Value.Uint64()
}

// Reads with a timeout and a cancellable run context start no goroutine
// per query (database/sql's Rows.awaitDone and the driver's
// interruptOnDone each start one per statement when the context can end).
func TestNoGoroutinePerQuery(t *testing.T) {
	const n = 500
	d := newDB(t, 10, driver.Options{PoolSize: 1, Timeout: time.Minute})
	c, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	op := &driver.Op{Query: "select v from t where id = $1", Args: []any{int64(3)}}
	var v string
	rows := &driver.Op{Query: "select id, v from t"}
	c.Do(ctx, op) // prepare outside the count
	c.(*Conn).DoRows(ctx, rows, func([]any) error { return nil })
	before := goroutinesCreated(t)
	for range n {
		if res := c.(*Conn).DoScan(ctx, op, &v); res.Err != nil || res.Rows != 1 || v != "x" {
			t.Fatalf("DoScan = %d rows %q, %v", res.Rows, v, res.Err)
		}
		if res := c.(*Conn).DoRows(ctx, rows, func([]any) error { return nil }); res.Err != nil || res.Rows != 10 {
			t.Fatalf("DoRows = %d rows, %v", res.Rows, res.Err)
		}
	}
	// A few for the runtime and the test framework, not one per query.
	if created := goroutinesCreated(t) - before; created > n/10 {
		t.Errorf("%d goroutines created during %d queries, want ~0", created, 2*n)
	}
}

func TestReadOnly(t *testing.T) {
	tests := []struct {
		q    string
		want bool
	}{
		{"select v from t where id = $1", true},
		{"  SELECT 1", true},
		{"(select 1)", true},
		{"with x as (select id from t) select * from x", true},
		{"values (1)", true},
		{"with x as (select 1) insert into t select * from x", false},
		{"insert into t values (1)", false},
		{"update t set v = 'y'", false},
		{"delete from t", false},
		{"replace into t values (1)", false},
		{"insert into t(id) values (1) returning id", false},
		{"pragma journal_mode", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := readOnly(tc.q); got != tc.want {
			t.Errorf("readOnly(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// Closing a DB twice does not panic (the watchdog stops once).
func TestCloseTwice(t *testing.T) {
	d := newDB(t, 1, driver.Options{PoolSize: 1})
	d.Close()
	d.Close()
}
