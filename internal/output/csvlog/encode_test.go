package csvlog

import (
	"strconv"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/reqlog"
)

// AppendRecord appends r as one CSV line to b with a fresh encoder (no
// cache): the reference that a VU's cached encoder must match.
func AppendRecord(b []byte, r *reqlog.Record) []byte {
	b = strconv.AppendInt(b, r.Time.Unix(), 10)
	var e encoder
	return e.appendRest(b, r)
}

// TestStampSecond: a row's timestamp is the Unix second of its time,
// rounded down as time.Time.Unix, before 1970 too; a time in the same
// second keeps the stamp, the next one changes it.
func TestStampSecond(t *testing.T) {
	for _, ns := range []int64{0, 1, 999999999, 1e9, -1, -999999999, -1e9, -1e9 - 1, 1628147822999999999} {
		e := newEncoder()
		e.setStamp(ns)
		want := time.Unix(0, ns).Unix()
		if got := string(e.stamp); got != strconv.FormatInt(want, 10) {
			t.Errorf("setStamp(%d): stamp %s, want %d", ns, got, want)
		}
		if in := uint64(ns - e.nsLo); in >= uint64(time.Second) {
			t.Errorf("setStamp(%d): second begins at %d, after it", ns, e.nsLo)
		}
		if next := e.nsLo + 1e9; time.Unix(0, next).Unix() != want+1 {
			t.Errorf("setStamp(%d): the second does not end at %d", ns, next)
		}
	}
}
