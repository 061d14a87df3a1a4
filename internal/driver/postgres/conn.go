package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stampede-bench/stampede/internal/driver"
)

// Conn is one VU's connection. It is used by one goroutine at a time.
type Conn struct {
	c *pgx.Conn // nil after a lost connection until the next Do reconnects
	d *DB
}

var _ driver.Conn = (*Conn)(nil)

// Do runs op.Query ($1 placeholders) with op.Args and reports the rows it
// returned or, for INSERT/UPDATE/DELETE, the rows it changed (the command
// tag).
func (c *Conn) Do(ctx context.Context, op *driver.Op) driver.Result {
	return c.DoScan(ctx, op)
}

// DoScan is Do that also scans the first row into dest (when dest is not
// empty and a row came back).
func (c *Conn) DoScan(ctx context.Context, op *driver.Op, dest ...any) driver.Result {
	parent := ctx
	ctx, cancel := driver.OpContext(ctx, c.d.timeout)
	defer cancel()
	if c.c == nil || c.c.IsClosed() {
		nc, err := c.d.connect(ctx)
		if err != nil {
			return driver.Result{Err: c.wrap(parent, ctx, err)}
		}
		c.c = nc
	}
	rows, err := c.c.Query(ctx, op.Query, op.Args...)
	if err != nil {
		return driver.Result{Err: c.wrap(parent, ctx, err)}
	}
	var n int64
	for rows.Next() {
		if n == 0 && len(dest) > 0 {
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				return driver.Result{Err: c.wrap(parent, ctx, err)}
			}
		}
		n++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return driver.Result{Rows: n, Err: c.wrap(parent, ctx, err)}
	}
	if tag := rows.CommandTag(); n == 0 && (tag.Insert() || tag.Update() || tag.Delete()) {
		n = tag.RowsAffected()
	}
	return driver.Result{Rows: n}
}

// wrap reports the per-operation timeout with a stable message and lets
// a cancelled run context through unchanged (the engine's stop).
func (c *Conn) wrap(parent, ctx context.Context, err error) error {
	return scrub(driver.OpError(parent, ctx, c.d.timeout, err), c.d.cfg.Password)
}

// Close closes the connection and frees its pool slot.
func (c *Conn) Close() error {
	var err error
	if c.c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = c.c.Close(ctx)
		cancel()
		c.c = nil
	}
	<-c.d.slots
	return err
}
