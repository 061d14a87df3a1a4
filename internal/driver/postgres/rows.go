package postgres

import (
	"context"

	"github.com/stampede-bench/stampede/internal/driver"
)

// DoRows is Do that hands the values of every row to each, in order (the
// slice is only valid during the call). Answer checks use it.
func (c *Conn) DoRows(ctx context.Context, op *driver.Op, each func(vals []any) error) driver.Result {
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
		vals, err := rows.Values()
		if err == nil {
			err = each(vals)
		}
		if err != nil {
			rows.Close()
			return driver.Result{Rows: n, Err: c.wrap(parent, ctx, err)}
		}
		n++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return driver.Result{Rows: n, Err: c.wrap(parent, ctx, err)}
	}
	return driver.Result{Rows: n}
}
