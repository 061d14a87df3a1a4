package csvlog

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"sync"
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

// TestFlushHoldsNothing: VUs that flush after every request (slow VUs
// about to be idle, reqlog.Flusher) hold no buffer between requests, every
// row reaches the output without Close (the writer goroutine's tick takes
// the shared buffer), and each VU's rows stay in its order.
func TestFlushHoldsNothing(t *testing.T) {
	const vus, rows = 2000, 20
	var out syncBuffer
	l := New(&out, Options{})
	ws := make([]*Writer, vus)
	for i := range ws {
		ws[i] = l.Writer("s").(*Writer)
	}
	long := strings.Repeat("x", 3*scratchSize) // a row that does not fit in scratch
	for r := range rows {
		for i, w := range ws {
			q := "vu" + strconv.Itoa(i)
			if i == 7 && r%5 == 0 {
				q += long
			}
			w.Write(reqlog.Record{Time: t0, Query: q, Latency: -1, ResponseTime: time.Duration(r) * time.Microsecond, OK: true})
			if r%3 != 1 { // two rows between some flushes
				w.Flush()
			}
			if w.buf != nil {
				t.Fatalf("a flushed writer holds a pooled buffer of %d bytes", cap(w.buf))
			}
		}
	}
	for _, w := range ws {
		w.Flush()
	}
	deadline := time.Now().Add(10 * time.Second)
	for l.Rows() < vus*rows && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if l.Rows() != vus*rows {
		t.Fatalf("%d of %d flushed rows written before Close", l.Rows(), vus*rows)
	}
	for _, w := range ws {
		w.Close()
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	next := map[string]int{}
	for i, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")[1:] {
		f := strings.Split(line, ",")
		vu := strings.TrimSuffix(f[1], long)
		if rt, _ := strconv.Atoi(f[3]); rt != next[vu] {
			t.Fatalf("line %d: %s has responseTime %d, want %d (out of order)", i+2, vu, rt, next[vu])
		}
		next[vu]++
	}
}

// syncBuffer is a bytes.Buffer safe for the writer goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestDirectWriterBusyAgain: a VU that flushed once (direct) and then logs
// many rows without a Flush, as a busy VU does, goes back to its own
// pooled buffer; every row is written once, in order.
func TestDirectWriterBusyAgain(t *testing.T) {
	var out syncBuffer
	l := New(&out, Options{})
	w := l.Writer("s").(*Writer)
	w.Flush()
	if !w.direct {
		t.Fatal("a flushed writer does not write direct")
	}
	const n = 5000 // about 150 KiB of rows: more than maxOver half-scratches
	for i := range n {
		w.Write(reqlog.Record{Time: t0, Query: "q", Latency: -1, ResponseTime: time.Duration(i) * time.Microsecond, OK: true})
	}
	if w.direct {
		t.Error("a writer that logs without idling still writes direct")
	}
	w.Close()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")[1:]
	if len(lines) != n {
		t.Fatalf("%d rows, want %d", len(lines), n)
	}
	for i, line := range lines {
		if rt, _ := strconv.Atoi(strings.Split(line, ",")[3]); rt != i {
			t.Fatalf("row %d has responseTime %d", i, rt)
		}
	}
}

// TestSlowVUsWakingTogether: 20,000 slow VUs that all log a request before
// any of them is flushed (they wake together after the same think time)
// allocate almost nothing per round: a flushed VU writes into its own
// scratch, not into a pooled buffer (which a burst empties, so that each
// VU allocated one: the heap, and RSS, then rose and fell with every
// burst). Only the shared buffers, 64 KiB each, may be new.
func TestSlowVUsWakingTogether(t *testing.T) {
	const vus = 20000
	l := New(io.Discard, Options{})
	ws := make([]*Writer, vus)
	for i := range ws {
		ws[i] = l.Writer("s").(*Writer)
	}
	r := reqlog.Record{Time: t0, Query: "builtin.Sleep", Latency: -1, ResponseTime: time.Second, OK: true}
	round := func() {
		for _, w := range ws {
			w.Write(r)
		}
		for _, w := range ws {
			w.Flush()
		}
	}
	round() // the first Flush makes each VU direct
	allocs := testing.AllocsPerRun(5, round)
	if limit := float64(vus) / 100; allocs > limit {
		t.Errorf("%.0f allocations per round of %d rows, want at most %.0f", allocs, vus, limit)
	}
	for _, w := range ws {
		w.Close()
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if want := int64(vus * 7); l.Rows() != want {
		t.Errorf("rows %d, want %d", l.Rows(), want)
	}
}
