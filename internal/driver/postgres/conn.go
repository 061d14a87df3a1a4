package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/stampede-bench/stampede/internal/driver"
)

// Conn is one VU's connection. It is used by one goroutine at a time.
type Conn struct {
	c *pgx.Conn // nil after a lost connection until the next Do reconnects
	d *DB
	// op is what the DB's watchdog sees of the query in progress; queries
	// run with quiet's context, whose Done is nil, so that pgx watches no
	// context (see watch.go).
	op    *driver.Watch
	quiet driver.Quiet
	// pc is c's PgConn, set before op.Begin; cancelDone and deadlineSet
	// are the watchdog's interruption of the query in progress (written
	// under op's lock by interrupt, read after op.End).
	pc          *pgconn.PgConn
	cancelDone  chan struct{}
	deadlineSet bool
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
	qctx, err := c.begin(ctx)
	if err != nil {
		return driver.Result{Err: err}
	}
	rows, err := c.c.Query(qctx, op.Query, op.Args...)
	if err != nil {
		return driver.Result{Err: c.end(ctx, err)}
	}
	var n int64
	for rows.Next() {
		if n == 0 && len(dest) > 0 {
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				return driver.Result{Err: c.end(ctx, err)}
			}
		}
		n++
	}
	rows.Close()
	if err := c.end(ctx, rows.Err()); err != nil {
		return driver.Result{Rows: n, Err: err}
	}
	if tag := rows.CommandTag(); n == 0 && (tag.Insert() || tag.Update() || tag.Delete()) {
		n = tag.RowsAffected()
	}
	return driver.Result{Rows: n}
}

// begin (re)connects when needed and starts watching a query of the run
// ctx; it returns the context to run the query with. Every begin that
// returns no error is followed by one end.
func (c *Conn) begin(ctx context.Context) (context.Context, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if c.c == nil || c.c.IsClosed() {
		// Rare: a per-operation context bounds the connect.
		octx, cancel := driver.OpContext(ctx, c.d.timeout)
		nc, err := c.d.connect(octx)
		cancel()
		if err != nil {
			return nil, c.wrap(ctx, octx, err)
		}
		c.c = nc
	}
	c.pc = c.c.PgConn()
	c.op.Begin(ctx)
	return c.quiet.Of(ctx), nil
}

// end stops watching the query and returns the error to report for err,
// its outcome: the run's cancellation unchanged (the engine's stop), a
// *driver.TimeoutError when the watchdog interrupted it for its timeout,
// else err (nil: success).
func (c *Conn) end(ctx context.Context, err error) error {
	cause := c.op.End()
	if c.cancelDone != nil {
		<-c.cancelDone // the cancel request is over: it cannot hit the next query
		c.cancelDone = nil
	}
	if c.deadlineSet {
		c.pc.Conn().SetDeadline(time.Time{})
		c.deadlineSet = false
	}
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case cause != nil:
		return cause
	}
	return scrub(err, c.d.cfg.Password)
}

// wrap reports the per-operation timeout of a connect with a stable
// message and lets a cancelled run context through unchanged.
func (c *Conn) wrap(parent, ctx context.Context, err error) error {
	return scrub(driver.OpError(parent, ctx, c.d.timeout, err), c.d.cfg.Password)
}

// Close closes the connection and frees its pool slot.
func (c *Conn) Close() error {
	c.d.watch.Remove(c.op)
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
