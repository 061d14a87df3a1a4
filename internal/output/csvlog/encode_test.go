package csvlog

import (
	"strconv"

	"github.com/stampede-bench/stampede/internal/reqlog"
)

// AppendRecord appends r as one CSV line to b with a fresh encoder (no
// cache): the reference that a VU's cached encoder must match.
func AppendRecord(b []byte, r *reqlog.Record) []byte {
	b = strconv.AppendInt(b, r.Time.Unix(), 10)
	var e encoder
	return e.appendRest(b, r)
}
