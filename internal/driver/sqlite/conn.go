package sqlite

import (
	"context"
	"database/sql"

	"github.com/stampede-bench/stampede/internal/driver"
)

// Conn is one VU's connection with its prepared statements. It is used by
// one goroutine at a time.
type Conn struct {
	c     *sql.Conn
	d     *DB
	stmts map[string]*stmt
	// op is what the DB's watchdog sees of the operation in progress; nil
	// when the connection cannot be interrupted that way, and then every
	// statement runs under a per-operation context (a goroutine or two
	// per statement).
	op    *driver.Watch
	quiet driver.Quiet // the run's context, Done nil
}

// stmt is a prepared statement and how it runs.
type stmt struct {
	st *sql.Stmt
	// query: it returns rows (else the rows it changed are counted).
	query bool
	// quiet: it only reads, so it runs under the watchdog with a context
	// whose Done is nil. Writing statements keep a per-operation context:
	// their wait for SQLite's write lock (busy handler) ends only with it.
	quiet bool
}

var _ driver.Conn = (*Conn)(nil)

// Do runs op.Query with op.Args ($1, ?1 or ? placeholders) and reports the
// number of rows it returned, or for statements that return no rows
// (INSERT, UPDATE, DELETE without RETURNING) the number of rows changed.
// Options.Timeout bounds it.
func (c *Conn) Do(ctx context.Context, op *driver.Op) driver.Result {
	return c.DoScan(ctx, op)
}

// DoScan is Do that also scans the first row into dest (when dest is not
// empty and a row came back).
func (c *Conn) DoScan(ctx context.Context, op *driver.Op, dest ...any) driver.Result {
	return c.do(ctx, op, dest, nil)
}

// do runs op: it scans the first row into dest or, when each is not nil,
// hands every row to each (see DoRows).
func (c *Conn) do(ctx context.Context, op *driver.Op, dest []any, each func([]any) error) driver.Result {
	if err := ctx.Err(); err != nil {
		return driver.Result{Err: err}
	}
	s, err := c.stmt(ctx, op.Query)
	if err != nil {
		return driver.Result{Err: err}
	}
	if !s.quiet || c.op == nil {
		octx, cancel := driver.OpContext(ctx, c.d.timeout)
		defer cancel()
		res := run(octx, s, op, dest, each)
		if res.Err != nil {
			res.Err = c.wrap(ctx, octx, res.Err)
		}
		return res
	}
	c.op.Begin(ctx)
	res := run(c.quiet.Of(ctx), s, op, dest, each)
	cause := c.op.End()
	if res.Err != nil {
		switch {
		case ctx.Err() != nil:
			res.Err = ctx.Err() // the engine's stop
		case cause != nil:
			res.Err = cause
		}
	}
	return res
}

// run executes s under ctx and counts rows; errors are returned raw.
func run(ctx context.Context, s *stmt, op *driver.Op, dest []any, each func([]any) error) driver.Result {
	if !s.query && each == nil {
		res, err := s.st.ExecContext(ctx, op.Args...)
		if err != nil {
			return driver.Result{Err: err}
		}
		n, _ := res.RowsAffected()
		return driver.Result{Rows: n}
	}
	rows, err := s.st.QueryContext(ctx, op.Args...)
	if err != nil {
		return driver.Result{Err: err}
	}
	if each != nil {
		cols, err := rows.Columns()
		if err != nil {
			rows.Close()
			return driver.Result{Err: err}
		}
		vals := make([]any, len(cols))
		dest = make([]any, len(cols))
		for i := range vals {
			dest[i] = &vals[i]
		}
		var n int64
		for rows.Next() {
			err := rows.Scan(dest...)
			if err == nil {
				err = each(vals)
			}
			if err != nil {
				rows.Close()
				return driver.Result{Rows: n, Err: err}
			}
			n++
		}
		return closeRows(rows, n)
	}
	var n int64
	for rows.Next() {
		if n == 0 && len(dest) > 0 {
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				return driver.Result{Err: err}
			}
		}
		n++
	}
	return closeRows(rows, n)
}

// closeRows closes rows after n rows and reports the first error.
func closeRows(rows *sql.Rows, n int64) driver.Result {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return driver.Result{Rows: n, Err: err}
}

// stmt returns the prepared statement of q on this connection, preparing
// it (bounded by Options.Timeout) the first time.
func (c *Conn) stmt(ctx context.Context, q string) (*stmt, error) {
	if s, ok := c.stmts[q]; ok {
		return s, nil
	}
	pctx, cancel := driver.OpContext(ctx, c.d.timeout)
	defer cancel()
	st, err := c.c.PrepareContext(pctx, q)
	if err != nil {
		return nil, c.wrap(ctx, pctx, err)
	}
	s := &stmt{st: st, query: isQuery(q), quiet: readOnly(q)}
	c.stmts[q] = s
	return s, nil
}

// wrap turns the expiry of the per-operation timeout into a stable
// message; a cancelled run context passes through unchanged so that the
// engine recognises the stop.
func (c *Conn) wrap(parent, ctx context.Context, err error) error {
	return driver.OpError(parent, ctx, c.d.timeout, err)
}

// Close releases the statements and returns the connection to the pool.
func (c *Conn) Close() error {
	if c.op != nil {
		c.d.watch.Remove(c.op)
	}
	for _, s := range c.stmts {
		s.st.Close()
	}
	err := c.c.Close()
	<-c.d.slots
	return err
}
