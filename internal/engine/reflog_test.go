package engine

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
	"github.com/stampede-bench/stampede/metric"
	"github.com/stampede-bench/stampede/vu"
)

// recordLog keeps every record per VU writer. With ref, its writers
// take them by reference (reqlog.RefWriter) and rebuild Time from the
// offset; with plain as well, they take every other plain request as
// fields (reqlog.PlainWriter) and rebuild the record, counting them in
// plains.
type recordLog struct {
	ref, plain    bool
	mu            sync.Mutex
	all           [][]reqlog.Record
	tries, plains int
}

func (l *recordLog) Writer(string) reqlog.Writer {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, nil)
	w := &recordWriter{l: l, i: len(l.all) - 1}
	switch {
	case l.plain:
		return &plainWriter{refWriter{w}}
	case l.ref:
		return &refWriter{w}
	}
	return w
}

type recordWriter struct {
	l *recordLog
	i int
}

func (w *recordWriter) Write(r reqlog.Record) {
	r.Op = nil // valid only during the call
	w.l.mu.Lock()
	w.l.all[w.i] = append(w.l.all[w.i], r)
	w.l.mu.Unlock()
}
func (w *recordWriter) Close() error { return nil }

type refWriter struct{ *recordWriter }

func (w *refWriter) WriteAt(r *reqlog.Record, c metrics.Clock, at time.Duration) {
	if !r.Time.IsZero() {
		panic("WriteAt with a Time")
	}
	cp := *r
	cp.Time = c.Wall(at)
	w.Write(cp)
}

type plainWriter struct{ refWriter }

// WritePlain takes every other plain request (the others go by reference).
func (w *plainWriter) WritePlain(query string, latency, responseTime time.Duration, rows int64, unixNano int64) bool {
	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	if w.l.tries++; w.l.tries%2 == 0 {
		return false
	}
	w.l.plains++
	w.l.all[w.i] = append(w.l.all[w.i], reqlog.Record{Time: time.Unix(0, unixNano), Query: query, Latency: latency, ResponseTime: responseTime, OK: true, Rows: rows})
	return true
}

// variedVU makes requests of every kind the log shows.
type variedVU struct{}

func (variedVU) NewVU(context.Context, int) (vu.VU, error) { return variedVU{}, nil }
func (variedVU) Close() error                              { return nil }
func (variedVU) Iterate(_ context.Context, it *vu.Iter) error {
	start := it.Now()
	switch it.N % 5 {
	case 0:
		it.Request("plain", start, driver.Result{Rows: 3})
	case 1:
		it.Request("latency", start, driver.Result{HasLatency: true, ServerLatency: 7 * time.Microsecond})
	case 2:
		it.RequestAudit(vu.Audit{Label: "audit", Op: &driver.Op{Query: "SELECT 1"}, Answer: 4, HasAnswer: true}, start, driver.Result{Rows: 1})
	case 3:
		it.RequestHTTP("http", start, driver.Result{Rows: 1}, nil, &metric.HTTPSample{Status: 200, Expected: true})
	default:
		it.Request("failed", start, driver.Result{Err: errors.New("boom")})
	}
	return nil
}

// TestRefWriterSameRecords: a log taking records by reference
// (reqlog.RefWriter), and plain requests as fields (reqlog.PlainWriter),
// gets the same records as one taking them by value, whatever the
// previous record of the VU left in the reused one.
func TestRefWriterSameRecords(t *testing.T) {
	plains := 0
	run := func(ref, plain bool) [][]reqlog.Record {
		log := &recordLog{ref: ref, plain: plain}
		reg := metrics.NewRegistry()
		clock := metrics.ClockAt(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
		agg := metrics.NewAggregator(reg, clock, []string{"s"})
		go agg.Run()
		cfg := Config{Executor: PerVUIterations, VUs: 2, Iterations: 40}.Defaults()
		if _, err := Run(t.Context(), Plan{Scenarios: []Spec{{Name: "s", Scenario: variedVU{}, Config: cfg}}}, Deps{Agg: agg, Clock: clock, Log: log}); err != nil {
			t.Fatal(err)
		}
		agg.Close()
		plains += log.plains
		return log.all
	}
	byValue := run(false, false)
	for _, way := range []struct {
		name       string
		ref, plain bool
	}{{"by reference", true, false}, {"plain as fields", true, true}} {
		byRef := run(way.ref, way.plain)
		if len(byValue) != len(byRef) || len(byRef) == 0 {
			t.Fatalf("%s: %d and %d writers", way.name, len(byValue), len(byRef))
		}
		for i := range byRef {
			if len(byRef[i]) != 40 || len(byValue[i]) != 40 {
				t.Fatalf("%s: writer %d: %d and %d records, want 40", way.name, i, len(byValue[i]), len(byRef[i]))
			}
			for j, r := range byRef[i] {
				v := byValue[i][j]
				if r.Time.IsZero() || v.Time.IsZero() {
					t.Fatalf("%s: record %d: no time", way.name, j)
				}
				r.Time, v.Time, r.ResponseTime, v.ResponseTime = time.Time{}, time.Time{}, 0, 0 // timings differ between the runs
				if !reflect.DeepEqual(r, v) {
					t.Errorf("%s: writer %d record %d: %+v, by value %+v", way.name, i, j, r, v)
				}
			}
		}
	}
	if plains != 16 { // half of each VU's "plain" and "latency" requests, 16 of 40
		t.Errorf("%d plain requests written as fields, want 16", plains)
	}
}

// TestRefRecordFields: Iter.op sets every field of the reused record but
// Time; a new field of reqlog.Record must be set there too, and be zero
// in a plain request (reqlog.PlainWriter).
func TestRefRecordFields(t *testing.T) {
	want := []string{"Time", "Query", "Latency", "ResponseTime", "OK", "Rows", "Err", "Op", "Answer", "HasAnswer", "HTTP"}
	var got []string
	for f := range reflect.TypeFor[reqlog.Record]().Fields() {
		got = append(got, f.Name)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reqlog.Record has fields %v, Iter.op sets %v: set the new ones in its RefWriter path (and keep plain requests plain)", got, want)
	}
}
