package postgres

import (
	"context"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/postgres/pgtest"
)

// Queries with a timeout and a cancellable run context start no
// goroutine per query: they run with a context whose Done is nil, which
// pgx does not watch, and the DB's watchdog enforces the timeout.
func TestNoGoroutinePerQuery(t *testing.T) {
	const n = 300
	d := open(t, pgtest.URL(t), driver.Options{PoolSize: 1, Timeout: time.Minute})
	c, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	op := &driver.Op{Query: "select g from generate_series(1, $1::int) g", Args: []any{int64(3)}}
	c.Do(ctx, op) // prepare outside the count
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	before := s[0].Value.Uint64()
	for range n {
		if res := c.Do(ctx, op); res.Err != nil || res.Rows != 3 {
			t.Fatalf("Do = %d rows, %v", res.Rows, res.Err)
		}
	}
	metrics.Read(s)
	if created := s[0].Value.Uint64() - before; created > n/10 {
		t.Errorf("%d goroutines created during %d queries, want ~0", created, n)
	}
}
