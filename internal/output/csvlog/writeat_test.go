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

// TestWriteAtMatchesWrite: records passed by reference with their time
// as a run offset (WriteAt, the engine's way) make the same rows as the
// same records with their Time (Write), across second boundaries, a
// clock that changes and the two ways mixed in one writer.
func TestWriteAtMatchesWrite(t *testing.T) {
	c1 := metrics.ClockAt(t0.Add(-300 * time.Millisecond))
	c2 := metrics.ClockAt(t0.Add(5 * time.Hour))
	type step struct {
		c   metrics.Clock
		at  time.Duration
		way int // 0 WriteAt, 1 Write
	}
	var steps []step
	for i := range 40 {
		c := c1
		if i >= 30 {
			c = c2
		}
		steps = append(steps, step{c, time.Duration(i) * 170 * time.Millisecond, i % 7 / 5})
	}
	steps = append(steps, step{c1, -2 * time.Second, 0}, step{c1, 999999999, 0}, step{c1, 1e9, 0}, step{c1, 300e6 - 1, 0}, step{c1, 300e6, 0})
	var got, want bytes.Buffer
	lg, lw := New(&got, Options{}), New(&want, Options{})
	g, w := lg.Writer("s").(*Writer), lw.Writer("s")
	for i, s := range steps {
		r := reqlog.Record{Query: "q", Latency: -1, ResponseTime: time.Duration(i) * time.Microsecond, OK: true}
		if s.way == 0 {
			g.WriteAt(&r, s.c, s.at)
		} else {
			r.Time = s.c.Wall(s.at)
			g.Write(r)
		}
		r.Time = s.c.Wall(s.at)
		w.Write(r)
	}
	g.Close()
	w.Close()
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	if err := lw.Close(); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("WriteAt:\n%s\nWrite:\n%s", got.String(), want.String())
	}
}

// stampEncoder writes each record's Time.
type stampEncoder struct{}

func (stampEncoder) Append(b []byte, r *reqlog.Record) []byte {
	return append(r.Time.AppendFormat(b, time.RFC3339Nano), '\n')
}

// TestWriteAtCustomEncoder: another format's encoder gets the record's
// Time from WriteAt's offset.
func TestWriteAtCustomEncoder(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, Options{NewEncoder: func(string) RecordEncoder { return stampEncoder{} }})
	w := l.Writer("s").(*Writer)
	c := metrics.ClockAt(t0)
	w.WriteAt(&reqlog.Record{}, c, 1500*time.Millisecond)
	w.Close()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if want := t0.Add(1500*time.Millisecond).Format(time.RFC3339Nano) + "\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	if w.Events() {
		t.Error("Events() = true for an encoder without events")
	}
}

// TestWriteAtMatchesAppendRecord: one VU's writer taking records by
// offset (WriteAt: the common row in place, with its cached prefix, and
// write for the others) writes every record as a fresh AppendRecord
// does: successful and failed rows, with and without server latency,
// numbers of one to nine digits and negative ones, quoted and long
// queries, the same text at another address, rows with an Op, an answer
// or an error between them, across second boundaries, buffered and
// direct (after a Flush).
func TestWriteAtMatchesAppendRecord(t *testing.T) {
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
	want := []byte(Header)
	i := 0
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
					w.WriteAt(&r, c, at)
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
	if got.String() != string(want) {
		g, e := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for j := range min(len(g), len(e)) {
			if g[j] != e[j] {
				t.Fatalf("row %d: WriteAt %q, AppendRecord %q", j, g[j], e[j])
			}
		}
		t.Fatalf("WriteAt wrote %d lines, AppendRecord %d", len(g), len(e))
	}
}

// FuzzWriteAt: any record written by offset, after one of the same query
// in the same second (so that the common row's path may take it), is the
// row AppendRecord makes of it.
func FuzzWriteAt(f *testing.F) {
	f.Add("noop", int64(-1), int64(0), int64(0), true, "", int64(1500))
	f.Add("go.Go1Step", int64(1022000), int64(2292000), int64(60), true, "", int64(999999999))
	f.Add(`a,"b`, int64(0), int64(99999999000), int64(99999999), false, "x", int64(-1))
	f.Add("q", int64(5), int64(-5), int64(-7), true, "", int64(3))
	f.Fuzz(func(t *testing.T, q string, lat, rt, rows int64, ok bool, errMsg string, at int64) {
		c := metrics.ClockAt(t0)
		var got bytes.Buffer
		l := New(&got, Options{})
		w := l.Writer("s").(*Writer)
		r := reqlog.Record{Query: q, Latency: time.Duration(lat), ResponseTime: time.Duration(rt), OK: ok, Rows: rows, Err: errMsg}
		first := reqlog.Record{Query: q, Latency: -1, OK: true}
		w.WriteAt(&first, c, time.Duration(at))
		w.WriteAt(&r, c, time.Duration(at))
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

// TestWriteAtAllocatesNothing: writing records by offset allocates
// nothing per record once the log's buffers are in use, whether a row
// takes the common row's path or appendRest's (a long query, a quoted
// one, an error).
func TestWriteAtAllocatesNothing(t *testing.T) {
	l := New(io.Discard, Options{})
	w := l.Writer("s").(*Writer)
	c := metrics.ClockAt(t0)
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
				w.WriteAt(&recs[i], c, at)
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
