package csvlog

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// engineLog writes records to w as the engine does (vu.Iter): a plain
// request offered to WritePlain first with its end in Unix nanoseconds
// (the clock's zero converted once), any other or one WritePlain refuses
// by reference.
type engineLog struct {
	w    *Writer
	c    metrics.Clock
	base int64 // c's zero in Unix nanoseconds
}

func newEngineLog(w *Writer, c metrics.Clock) *engineLog {
	return &engineLog{w: w, c: c, base: c.Base().UnixNano()}
}

// log writes r, which ended at offset at, and reports whether WritePlain
// took it.
func (l *engineLog) log(r *reqlog.Record, at time.Duration) bool {
	if r.OK && r.Err == "" && r.Op == nil && !r.HasAnswer && r.HTTP == nil &&
		l.w.WritePlain(r.Query, r.Latency, r.ResponseTime, r.Rows, l.base+int64(at)) {
		return true
	}
	l.w.WriteAt(r, l.c, at)
	return false
}

// TestWritePlainMatchesAppendRecord: one VU's writer taking records as
// the engine passes them (engineLog: WritePlain's common row in place,
// with its cached prefix, WriteAt for the others) writes every record as
// a fresh AppendRecord does: successful and failed rows, with and without server latency,
// numbers of one to nine digits and negative ones, quoted and long
// queries, the same text at another address, rows with an Op, an answer
// or an error between them, across second boundaries, buffered and
// direct (after a Flush).
func TestWritePlainMatchesAppendRecord(t *testing.T) {
	quoted := `a,"b` + "\nc"
	other := string([]byte("noop")) // the same text at another address
	long := strings.Repeat("q", preSize)
	queries := []string{"noop", "noop", other, "", quoted, quoted[:1], "noop", "x y", long, long[:preSize-12],
		long[:preSize-11], long[:20], long[:21], long[:30]}
	durs := []time.Duration{-1, 0, 999, 9 * time.Microsecond, 10 * time.Microsecond, 2292 * time.Microsecond,
		99999999 * time.Microsecond, 100 * time.Second, -3 * time.Microsecond, -999}
	c := metrics.ClockAt(t0.Add(-400 * time.Millisecond))
	var got bytes.Buffer
	l := New(&got, Options{})
	w := l.Writer("s").(*Writer)
	el := newEngineLog(w, c)
	want := []byte(Header)
	i, plain := 0, 0
	for _, q := range queries {
		for _, lat := range durs {
			for _, rt := range durs {
				for k := range 5 {
					i++
					r := reqlog.Record{Query: q, Latency: lat, ResponseTime: rt, OK: k != 1,
						Rows: []int64{0, 9, 10, 60, -1, 99999999, 1e8, 1234567}[(i+k)%8]}
					switch {
					case k == 2 && i%3 == 0:
						r.Err = "boom, again"
					case k == 3 && i%3 == 0:
						r.Answer, r.HasAnswer = -1, true
					case k == 4 && i%3 == 0:
						r.Op = &driver.Op{Query: "SELECT $1", Args: []any{int64(i)}}
					}
					at := time.Duration(i) * 3 * time.Millisecond
					if i%997 == 0 {
						w.Flush() // direct for a while: into scratch
					}
					if el.log(&r, at) {
						plain++
					}
					r.Time = c.Wall(at)
					want = AppendRecord(want, &r)
				}
			}
		}
	}
	w.Close()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if plain < i/10 {
		t.Errorf("WritePlain took %d of %d records", plain, i)
	}
	if got.String() != string(want) {
		g, e := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for j := range min(len(g), len(e)) {
			if g[j] != e[j] {
				t.Fatalf("row %d: written %q, AppendRecord %q", j, g[j], e[j])
			}
		}
		t.Fatalf("%d lines written, AppendRecord %d", len(g), len(e))
	}
}

// FuzzWritePlain: any record written as the engine does, after one of
// the same query in the same second (so that WritePlain may take it), is
// the row AppendRecord makes of it.
func FuzzWritePlain(f *testing.F) {
	f.Add("noop", int64(-1), int64(0), int64(0), true, "", int64(1500))
	f.Add("go.Go1Step", int64(1022000), int64(2292000), int64(60), true, "", int64(999999999))
	f.Add(`a,"b`, int64(0), int64(99999999000), int64(99999999), false, "x", int64(-1))
	f.Add("q", int64(5), int64(-5), int64(-7), true, "", int64(3))
	f.Fuzz(func(t *testing.T, q string, lat, rt, rows int64, ok bool, errMsg string, at int64) {
		c := metrics.ClockAt(t0)
		var got bytes.Buffer
		l := New(&got, Options{})
		w := l.Writer("s").(*Writer)
		el := newEngineLog(w, c)
		r := reqlog.Record{Query: q, Latency: time.Duration(lat), ResponseTime: time.Duration(rt), OK: ok, Rows: rows, Err: errMsg}
		first := reqlog.Record{Query: q, Latency: -1, OK: true}
		el.log(&first, time.Duration(at))
		el.log(&r, time.Duration(at))
		w.Close()
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		first.Time, r.Time = c.Wall(time.Duration(at)), c.Wall(time.Duration(at))
		want := AppendRecord(AppendRecord([]byte(Header), &first), &r)
		if got.String() != string(want) {
			t.Errorf("WriteAt %q, AppendRecord %q", got.String(), want)
		}
	})
}

// TestWritePlainAllocatesNothing: writing records as the engine does
// allocates nothing per record once the log's buffers are in use,
// whether a row takes the common row's path or appendRest's (a long
// query, a quoted one, an error).
func TestWritePlainAllocatesNothing(t *testing.T) {
	l := New(io.Discard, Options{})
	w := l.Writer("s").(*Writer)
	c := metrics.ClockAt(t0)
	el := newEngineLog(w, c)
	long := strings.Repeat("q", 2*preSize)
	recs := []reqlog.Record{
		{Query: "noop", Latency: -1, ResponseTime: 3 * time.Microsecond, OK: true},
		{Query: "go.Go1Step", Latency: 1022 * time.Microsecond, ResponseTime: 2292 * time.Microsecond, OK: true, Rows: 60},
		{Query: long, Latency: -1, ResponseTime: time.Millisecond, OK: true},
		{Query: `a,"b`, Latency: -1, ResponseTime: time.Millisecond, OK: true},
		{Query: "noop", Latency: -1, ResponseTime: time.Millisecond, Err: "boom"},
	}
	var at time.Duration
	write := func() {
		for i := range recs {
			for range 100 {
				at += 10 * time.Microsecond
				el.log(&recs[i], at)
			}
		}
	}
	for range 1000 { // warm up: the buffers the log recycles
		write()
	}
	if n := testing.AllocsPerRun(200, write); n > 0 {
		t.Errorf("%.2f allocations per %d records, want 0", n, 100*len(recs))
	}
	w.Close()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkWritePlain is a busy VU's common row alone, as the engine
// passes a plain request (WritePlain), with one-digit numbers (a no-op)
// and longer ones (a query with server latency and rows). Every row but
// the first of a second or of a buffer is WritePlain's.
func BenchmarkWritePlain(b *testing.B) {
	for _, bc := range []struct {
		name string
		r    reqlog.Record
	}{
		{"noop", reqlog.Record{Query: "noop", Latency: -1, ResponseTime: 300, OK: true}},
		{"query", reqlog.Record{Query: "go.Go1Step", Latency: 1022 * time.Microsecond, ResponseTime: 2292 * time.Microsecond, OK: true, Rows: 60}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			l := New(io.Discard, Options{})
			w := l.Writer("s").(*Writer)
			el := newEngineLog(w, metrics.ClockAt(t0))
			plain := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if el.log(&bc.r, time.Duration(i)*100) {
					plain++
				}
			}
			w.Close()
			if err := l.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(plain)/float64(b.N), "plain/op")
		})
	}
}
