package csvlog

import (
	"io"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/reqlog"
)

// TestBufferBudget: with many slow VUs the buffers they hold together stay
// within the budget (the RSS of a 20,000-VU run with the CSV on used to
// grow until every VU held a 64 KiB buffer), and VUs hold nothing after
// Close (the heap jumped at the end of a run when each closing VU was
// given a fresh 80 KiB buffer).
func TestBufferBudget(t *testing.T) {
	tests := []struct {
		name        string
		vus, rows   int
		budget      int
		maxHeldPerV int // bytes a VU may hold on average
	}{
		{"20k slow VUs", 20000, 30, 8 << 20, 1 << 10},
		{"50 busy VUs", 50, 2000, 32 << 20, 100 << 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New(io.Discard, Options{Budget: tc.budget})
			ws := make([]*Writer, tc.vus)
			for i := range ws {
				ws[i] = l.Writer("s").(*Writer)
			}
			for r := range tc.rows {
				for _, w := range ws {
					w.Write(reqlog.Record{Time: t0, Query: "go.Go1Step person=123456", Latency: -1, ResponseTime: time.Duration(r) * time.Microsecond, OK: true})
				}
			}
			held := 0
			for _, w := range ws {
				held += cap(w.buf)
			}
			if limit := tc.budget + tc.vus*firstBufSize/4; held > limit && held > tc.vus*tc.maxHeldPerV {
				t.Errorf("VUs hold %d bytes, budget %d", held, tc.budget)
			}
			for _, w := range ws {
				w.Close()
				if w.buf != nil {
					t.Fatalf("a closed writer holds %d bytes", cap(w.buf))
				}
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if l.Rows() != int64(tc.vus*tc.rows) {
				t.Errorf("rows %d, want %d", l.Rows(), tc.vus*tc.rows)
			}
		})
	}
}
