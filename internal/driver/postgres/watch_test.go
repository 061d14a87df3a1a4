package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/postgres/pgtest"
)

// A query that outlives the timeout is cancelled by the watchdog within a
// tick: it fails with the stable timeout message, no earlier than the
// timeout, the cancel request keeps the connection (the next query runs on
// the same one), and a query started after it is timed from its own start.
func TestWatchdogTimeout(t *testing.T) {
	const timeout = 300 * time.Millisecond
	d := open(t, pgtest.URL(t), driver.Options{PoolSize: 1, Timeout: timeout})
	dc, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	c := dc.(*Conn)
	ctx := t.Context()
	for _, q := range []string{"select pg_sleep(0.2)", "select pg_sleep(0.2)"} { // each under the timeout
		if res := c.Do(ctx, &driver.Op{Query: q}); res.Err != nil {
			t.Fatalf("%s: %v", q, res.Err)
		}
	}
	before := c.c
	t0 := time.Now()
	res := c.Do(ctx, &driver.Op{Query: "select pg_sleep(10)"})
	took := time.Since(t0)
	var te *driver.TimeoutError
	if !errors.As(res.Err, &te) || res.Err.Error() != "timeout after 300ms" {
		t.Fatalf("pg_sleep(10): %v, want timeout after 300ms", res.Err)
	}
	if took < timeout || took > timeout+DeadlineDelay {
		t.Fatalf("timed out after %v, want %v to %v", took, timeout, timeout+DeadlineDelay)
	}
	if res := c.Do(ctx, &driver.Op{Query: "select 1"}); res.Err != nil || res.Rows != 1 {
		t.Fatalf("after the timeout: %d rows, %v", res.Rows, res.Err)
	}
	if c.c != before {
		t.Error("the connection was replaced: the cancel request should have kept it")
	}
}

// A run that ends during a query interrupts it within a tick and the
// query reports the run's context error; the connection stays usable.
func TestWatchdogRunCancel(t *testing.T) {
	d := open(t, pgtest.URL(t), driver.Options{PoolSize: 1, Timeout: time.Minute})
	dc, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(200*time.Millisecond, cancel)
	t0 := time.Now()
	res := dc.Do(ctx, &driver.Op{Query: "select pg_sleep(10)"})
	if !errors.Is(res.Err, context.Canceled) {
		t.Fatalf("cancelled run: %v, want context.Canceled", res.Err)
	}
	if took := time.Since(t0); took > 200*time.Millisecond+DeadlineDelay {
		t.Fatalf("interrupted after %v", took)
	}
	if res := dc.Do(t.Context(), &driver.Op{Query: "select 1"}); res.Err != nil || res.Rows != 1 {
		t.Fatalf("after the cancel: %d rows, %v", res.Rows, res.Err)
	}
}

// A query that a cancel request does not stop (here: the cancel request
// reaches nothing) loses its connection DeadlineDelay later; the next
// query reconnects.
func TestWatchdogDeadline(t *testing.T) {
	const timeout = 200 * time.Millisecond
	d := open(t, pgtest.URL(t), driver.Options{PoolSize: 1, Timeout: timeout})
	dc, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	c := dc.(*Conn)
	// The watchdog believes a cancel request already went out.
	d.watch.Remove(c.op)
	c.op = d.watch.Add(func(since time.Duration) {
		if c.cancelDone == nil {
			c.cancelDone = make(chan struct{})
			close(c.cancelDone)
		}
		c.interrupt(since)
	})
	before := c.c
	t0 := time.Now()
	res := c.Do(t.Context(), &driver.Op{Query: "select pg_sleep(10)"})
	took := time.Since(t0)
	if res.Err == nil || res.Err.Error() != "timeout after 200ms" {
		t.Fatalf("pg_sleep(10): %v, want timeout after 200ms", res.Err)
	}
	if took < timeout+DeadlineDelay || took > timeout+DeadlineDelay+time.Second {
		t.Fatalf("connection cut after %v, want about %v", took, timeout+DeadlineDelay)
	}
	if res := c.Do(t.Context(), &driver.Op{Query: "select 1"}); res.Err != nil || res.Rows != 1 {
		t.Fatalf("after the cut: %d rows, %v", res.Rows, res.Err)
	}
	if c.c == before {
		t.Error("the cut connection was kept")
	}
}
