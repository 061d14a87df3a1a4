package vu

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/metric"
	"github.com/stampede-bench/stampede/output"
)

// op is one Recorder.Op call.
type op struct {
	rt, svc, lat, rows int64
	err                string
}

// fakeRecorder keeps the operations and rates recorded on it.
type fakeRecorder struct {
	ops   []op
	rates map[metric.ID][2]int // passes, fails
	http  int
}

func (r *fakeRecorder) Trend(metric.ID, time.Duration, int64)                   {}
func (r *fakeRecorder) Add(metric.ID, time.Duration, int64)                     {}
func (r *fakeRecorder) Gauge(metric.ID, float64)                                {}
func (r *fakeRecorder) Error(time.Duration, string)                             {}
func (r *fakeRecorder) Tick(time.Duration)                                      {}
func (r *fakeRecorder) Flush()                                                  {}
func (r *fakeRecorder) HTTP(time.Duration, *metric.HTTPIDs, *metric.HTTPSample) { r.http++ }
func (r *fakeRecorder) Op(_ time.Duration, rt, svc, lat, rows int64, err string) {
	r.ops = append(r.ops, op{rt, svc, lat, rows, err})
}
func (r *fakeRecorder) Rate(id metric.ID, _ time.Duration, pass bool) {
	if r.rates == nil {
		r.rates = map[metric.ID][2]int{}
	}
	c := r.rates[id]
	if pass {
		c[0]++
	} else {
		c[1]++
	}
	r.rates[id] = c
}

// logWriter keeps the request records written to it.
type logWriter struct{ recs []output.RequestRecord }

func (w *logWriter) Write(r output.RequestRecord) { w.recs = append(w.recs, r) }
func (w *logWriter) Close() error                 { return nil }

func TestIterRecordsOperations(t *testing.T) {
	const ms = time.Millisecond
	stopped, stop := context.WithCancel(context.Background())
	stop()
	for _, tc := range []struct {
		name      string
		ctx       context.Context
		scheduled bool
		intended  time.Duration // the iteration starts at 10 ms
		do        func(it *Iter)
		want      []op
		connFail  bool
	}{
		{"closed model: the first operation from the intended start, no service time", context.Background(), false, 10 * ms,
			func(it *Iter) {
				it.RequestAuditAt(Audit{Label: "a"}, 12*ms, 15*ms, Result{Rows: 3})
				it.RequestAuditAt(Audit{Label: "b"}, 15*ms, 16*ms, Result{Rows: 1, ServerLatency: 500 * time.Microsecond, HasLatency: true})
			},
			[]op{{rt: 5000, svc: -1, lat: -1, rows: 3}, {rt: 1000, svc: -1, lat: 500, rows: 1}}, false},
		{"open model: responseTime from the intended start, service time from the actual one", context.Background(), true, 4 * ms,
			func(it *Iter) { it.RequestAuditAt(Audit{Label: "a"}, 12*ms, 15*ms, Result{}) },
			[]op{{rt: 11000, svc: 3000, lat: -1}}, false},
		{"a failure records no rows; a connection error backs the VU off", context.Background(), false, 10 * ms,
			func(it *Iter) {
				it.RequestAuditAt(Audit{Label: "a"}, 10*ms, 11*ms, Result{Rows: 9, Err: errors.New("dial tcp: connection refused")})
			},
			[]op{{rt: 1000, svc: -1, lat: -1, rows: 9, err: "dial tcp: connection refused"}}, true},
		{"an operation cut by the stop is not recorded", stopped, false, 10 * ms,
			func(it *Iter) { it.RequestAuditAt(Audit{Label: "a"}, 10*ms, 11*ms, Result{Err: context.Canceled}) },
			nil, false},
		{"an unexpected HTTP status fails the request", context.Background(), false, 10 * ms,
			func(it *Iter) {
				h := &metric.HTTPSample{Status: 503}
				it.RequestAuditAt(Audit{Label: "GET /", HTTP: h, HTTPIDs: &metric.HTTPIDs{}}, 10*ms, 11*ms, Result{})
			},
			[]op{{rt: 1000, svc: -1, lat: -1, err: "HTTP 503 Service Unavailable: not the expected status"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, log := &fakeRecorder{}, &logWriter{}
			var it Iter
			it.Init(0, rec, metric.NewClock(), log)
			it.Begin(tc.ctx, 10*ms, tc.intended, tc.scheduled)
			tc.do(&it)
			if len(rec.ops) != len(tc.want) {
				t.Fatalf("recorded %+v, want %+v", rec.ops, tc.want)
			}
			for i := range tc.want {
				if got := rec.ops[i]; got != tc.want[i] {
					t.Errorf("operation %d: %+v, want %+v", i, got, tc.want[i])
				}
				if r := log.recs[i]; r.OK != (tc.want[i].err == "") || r.Err != tc.want[i].err {
					t.Errorf("log record %d: OK=%v Err=%q, want the recorder's failure %q", i, r.OK, r.Err, tc.want[i].err)
				}
			}
			if got := it.End("scenario", 20*ms, nil); got != tc.connFail {
				t.Errorf("End says connection failed = %v, want %v", got, tc.connFail)
			}
		})
	}
}

// TestIterEndRecordsAnUnrecordedError: an iteration that returns an error
// without a failed operation counts as one failed operation over the
// iteration; one whose failure was recorded is not counted twice.
func TestIterEndRecordsAnUnrecordedError(t *testing.T) {
	const ms = time.Millisecond
	rec := &fakeRecorder{}
	var it Iter
	it.Init(0, rec, metric.NewClock(), nil)
	it.Begin(context.Background(), 10*ms, 10*ms, false)
	it.End("s", 14*ms, errors.New("boom"))
	if want := []op{{rt: 4000, svc: -1, lat: -1, err: "boom"}}; len(rec.ops) != 1 || rec.ops[0] != want[0] {
		t.Errorf("recorded %+v, want %+v", rec.ops, want)
	}
	it.Begin(context.Background(), 20*ms, 20*ms, false)
	it.RequestAuditAt(Audit{Label: "a"}, 20*ms, 21*ms, Result{Err: errors.New("bad answer")})
	it.End("s", 22*ms, errors.New("bad answer"))
	if len(rec.ops) != 2 {
		t.Errorf("recorded %d operations, want 2: a recorded failure is not counted again", len(rec.ops))
	}
}

// TestIterChecks: a named check counts in checks and in its own rate.
func TestIterChecks(t *testing.T) {
	rec := &fakeRecorder{}
	var it Iter
	it.Init(0, rec, metric.NewClock(), nil)
	it.Check(true)
	it.CheckAs(metric.ID(40), false)
	if got := rec.rates[metric.IDChecks]; got != [2]int{1, 1} {
		t.Errorf("checks = %v, want one pass and one fail", got)
	}
	if got := rec.rates[40]; got != [2]int{0, 1} {
		t.Errorf("named check = %v, want one fail", got)
	}
}

// plainLog takes plain requests as fields (output.PlainWriter) when
// take says so, and every record by value otherwise.
type plainLog struct {
	logWriter
	take   bool
	plains []output.RequestRecord
}

func (w *plainLog) WritePlain(query string, latency, responseTime time.Duration, rows int64, unixNano int64) bool {
	if w.take {
		w.plains = append(w.plains, output.RequestRecord{Time: time.Unix(0, unixNano), Query: query, Latency: latency, ResponseTime: responseTime, OK: true, Rows: rows})
	}
	return w.take
}

// TestIterPlainRequests: a plain request (successful, no Op, answer or
// HTTP sample) is offered to a PlainWriter with its end as Unix
// nanoseconds of the run's clock; one it refuses, and any other request,
// goes the usual way.
func TestIterPlainRequests(t *testing.T) {
	const ms = time.Millisecond
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	for _, take := range []bool{true, false} {
		rec, log := &fakeRecorder{}, &plainLog{take: take}
		var it Iter
		it.Init(0, rec, metric.ClockAt(t0), log)
		it.Begin(context.Background(), 10*ms, 10*ms, false)
		it.RequestAuditAt(Audit{Label: "plain"}, 10*ms, 15*ms, Result{Rows: 3, ServerLatency: ms, HasLatency: true})
		it.RequestAuditAt(Audit{Label: "failed"}, 15*ms, 16*ms, Result{Err: errors.New("boom")})
		it.RequestAuditAt(Audit{Label: "answer", Answer: 4, HasAnswer: true}, 16*ms, 17*ms, Result{})
		it.RequestAuditAt(Audit{Label: "http", HTTP: &metric.HTTPSample{Status: 200, Expected: true}, HTTPIDs: &metric.HTTPIDs{}}, 17*ms, 18*ms, Result{})
		want := output.RequestRecord{Time: t0.Add(15 * ms), Query: "plain", Latency: ms, ResponseTime: 5 * ms, OK: true, Rows: 3}
		plain, others := log.recs, 4
		if take {
			plain, others = log.plains, 3
		}
		if len(plain) == 0 || !plain[0].Time.Equal(want.Time) || plain[0].Query != want.Query || plain[0].Latency != want.Latency ||
			plain[0].ResponseTime != want.ResponseTime || !plain[0].OK || plain[0].Rows != want.Rows {
			t.Fatalf("take=%v: the plain request logged as %+v, want %+v", take, plain, want)
		}
		if len(log.recs) != others {
			t.Errorf("take=%v: %d records the usual way, want %d", take, len(log.recs), others)
		}
	}
}
