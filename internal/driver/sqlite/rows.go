package sqlite

import (
	"context"

	"github.com/stampede-bench/stampede/internal/driver"
)

// DoRows is Do for queries that hands the values of every row to each, in
// order (the slice is only valid during the call). Answer checks use it.
func (c *Conn) DoRows(ctx context.Context, op *driver.Op, each func(vals []any) error) driver.Result {
	parent := ctx
	ctx, cancel := driver.OpContext(ctx, c.d.timeout)
	defer cancel()
	st, err := c.stmt(ctx, op.Query)
	if err != nil {
		return driver.Result{Err: c.wrap(parent, ctx, err)}
	}
	rows, err := st.QueryContext(ctx, op.Args...)
	if err != nil {
		return driver.Result{Err: c.wrap(parent, ctx, err)}
	}
	cols, err := rows.Columns()
	if err != nil {
		rows.Close()
		return driver.Result{Err: c.wrap(parent, ctx, err)}
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var n int64
	for rows.Next() {
		err := rows.Scan(ptrs...)
		if err == nil {
			err = each(vals)
		}
		if err != nil {
			rows.Close()
			return driver.Result{Rows: n, Err: c.wrap(parent, ctx, err)}
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
