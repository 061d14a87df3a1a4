package postgres

import (
	"context"

	"github.com/stampede-bench/stampede/internal/driver"
)

// DoRows is Do that hands the values of every row to each, in order (the
// slice is only valid during the call). Answer checks use it.
func (c *Conn) DoRows(ctx context.Context, op *driver.Op, each func(vals []any) error) driver.Result {
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
		vals, err := rows.Values()
		if err == nil {
			err = each(vals)
		}
		if err != nil {
			rows.Close()
			return driver.Result{Rows: n, Err: c.end(ctx, err)}
		}
		n++
	}
	rows.Close()
	if err := c.end(ctx, rows.Err()); err != nil {
		return driver.Result{Rows: n, Err: err}
	}
	return driver.Result{Rows: n}
}
