package csvlog

import (
	"bytes"
	"testing"
	"time"

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
