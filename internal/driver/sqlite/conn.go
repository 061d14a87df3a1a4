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
	stmts map[string]*sql.Stmt
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
	parent := ctx
	ctx, cancel := driver.OpContext(ctx, c.d.timeout)
	defer cancel()
	st, err := c.stmt(ctx, op.Query)
	if err != nil {
		return driver.Result{Err: c.wrap(parent, ctx, err)}
	}
	if !isQuery(op.Query) {
		res, err := st.ExecContext(ctx, op.Args...)
		if err != nil {
			return driver.Result{Err: c.wrap(parent, ctx, err)}
		}
		n, _ := res.RowsAffected()
		return driver.Result{Rows: n}
	}
	rows, err := st.QueryContext(ctx, op.Args...)
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
	err = rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return driver.Result{Rows: n, Err: c.wrap(parent, ctx, err)}
	}
	return driver.Result{Rows: n}
}

// stmt returns the prepared statement of q on this connection.
func (c *Conn) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := c.stmts[q]; ok {
		return st, nil
	}
	st, err := c.c.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	c.stmts[q] = st
	return st, nil
}

// wrap turns the expiry of the per-operation timeout into a stable
// message; a cancelled run context passes through unchanged so that the
// engine recognises the stop.
func (c *Conn) wrap(parent, ctx context.Context, err error) error {
	return driver.OpError(parent, ctx, c.d.timeout, err)
}

// Close releases the statements and returns the connection to the pool.
func (c *Conn) Close() error {
	for _, st := range c.stmts {
		st.Close()
	}
	err := c.c.Close()
	<-c.d.slots
	return err
}
