package nebula

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
)

// DoRows is Do that also hands every row of the answer to each, as Go
// values: nil (NULL), bool, int64, float64, string, time.Time (dates and
// datetimes, UTC), []any (lists), int64 (a path: its number of steps);
// values of other types (vertices, edges, maps, ...) as nil. vals is
// reused between rows. Answer checks use it; the hot path (Do) decodes
// no rows.
func (c *Conn) DoRows(ctx context.Context, op *driver.Op, each func(vals []any) error) driver.Result {
	c.rep.wantFirst, c.rep.wantAll = false, true
	res := c.exec(ctx, op)
	c.rep.wantAll = false
	if res.Err != nil || !c.ok {
		return res
	}
	vals := c.rep.all
	var row []any
	for _, w := range c.rep.widths {
		row = row[:0]
		for i := range vals[:w] {
			row = append(row, goValue(&vals[i]))
		}
		vals = vals[w:]
		if err := each(row); err != nil {
			res.Err = err
			return res
		}
	}
	return res
}

// goValue converts a decoded value (copying strings out of the frame).
func goValue(v *value) any {
	switch v.field {
	case valBool:
		return v.i != 0
	case valInt:
		return v.i
	case valFloat:
		return v.f
	case valString:
		return string(v.s)
	case valDate, valDateTime:
		return time.UnixMicro(v.i).UTC()
	case valPath:
		return int64(v.steps)
	case valList:
		out := make([]any, len(v.list))
		for i := range v.list {
			out[i] = goValue(&v.list[i])
		}
		return out
	}
	return nil
}
