package sqlite

import (
	"context"

	"github.com/stampede-bench/stampede/internal/driver"
)

// DoRows is Do for queries that hands the values of every row to each, in
// order (the slice is only valid during the call). Answer checks use it.
func (c *Conn) DoRows(ctx context.Context, op *driver.Op, each func(vals []any) error) driver.Result {
	return c.do(ctx, op, nil, each)
}
