package vu

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/stampede-bench/stampede/metric"
	"github.com/stampede-bench/stampede/output"
)

// Iter is the context of one iteration, reused by its VU: which iteration
// this is, and the means to record what it measured. The engine makes one
// per VU (Init) and starts each iteration on it (Begin); a workload reads
// its fields and records through its methods, only during Iterate.
type Iter struct {
	// VU is the VU's id within the scenario (-1 in a measured setup or
	// teardown); N counts its iterations from 0.
	VU int
	N  int64
	// Start is when the iteration actually started, Intended when it was
	// scheduled to start (equal under closed-model executors). Both are run
	// offsets.
	Start, Intended time.Duration

	// Rec is the VU's recorder, for metrics of the workload's own
	// (counters, rates, trends: metric.Registry ids).
	Rec Recorder
	// Clock is the run's clock.
	Clock metric.Clock

	// The fields every request reads come first, the per-request log's
	// last: with thousands of VUs, each cache line of an Iter that a
	// request touches is a miss.
	ctx       context.Context
	corrected bool
	scheduled bool // open model: the iteration has an intended start
	connErr   bool // an operation could not reach the target (closed model only)
	failed    bool // the iteration recorded a failed operation

	log    output.RequestWriter
	events output.EventWriter    // log, when it takes iteration and check events
	ref    output.RefWriter      // log, when it takes records by reference
	plain  output.PlainWriter    // log, when it takes plain requests as fields
	rec    *output.RequestRecord // ref's record, reused (made by Init when ref is set)
	// unixBase is Clock's zero in Unix nanoseconds (plain requests' times).
	unixBase int64
}

// Now reads the run clock.
func (it *Iter) Now() time.Duration { return it.Clock.Now() }

// Request records one operation that started at start (a run offset) and
// finished now with res, labelled query in the per-request log. The first
// operation of an iteration is timed from the iteration's intended start
// (coordinated omission); under arrival-rate executors service_time from
// the actual start is recorded as well (under the closed model the two are
// the same, and only responseTime is recorded). Operations cut
// short by the end of the run are not recorded. It returns the end time.
func (it *Iter) Request(query string, start time.Duration, res Result) time.Duration {
	return it.RequestAudit(Audit{Label: query}, start, res)
}

// RequestHTTP is Request for an HTTP operation: it also records k6's HTTP
// metrics (ids, registered with metric.RegisterHTTP) from h, and hands h
// to the per-request log. h and ids may be nil (then it is Request).
func (it *Iter) RequestHTTP(query string, start time.Duration, res Result, ids *metric.HTTPIDs, h *metric.HTTPSample) time.Duration {
	return it.RequestAudit(Audit{Label: query, HTTP: h, HTTPIDs: ids}, start, res)
}

// RequestAudit is Request with the statement as sent, a label and an
// answer for the per-request log.
func (it *Iter) RequestAudit(a Audit, start time.Duration, res Result) time.Duration {
	return it.RequestAuditAt(a, start, it.Clock.Now(), res)
}

// RequestAuditAt is RequestAudit for an operation that ended at end (a
// run offset, read when the call returned). A workload that checks an
// answer before recording it passes the end it read, so that the check's
// own time is not the operation's, and a wrong answer as res.Err: the
// operation is then a failed request in every output (errors,
// requests_failed, the per-request log's isSucceed and errorMsg).
func (it *Iter) RequestAuditAt(a Audit, start, end time.Duration, res Result) time.Duration {
	if res.Err != nil && StoppedBy(it.ctx, res.Err) {
		return end // interrupted by the stop, not a target failure
	}
	from := start
	if !it.corrected {
		it.corrected = true
		if it.Intended < from {
			from = it.Intended
		}
	}
	return it.op(a, from, start, end, res)
}

// RequestAt records an operation with its own intended start: a VU that
// pipelines operations over iterations (kafka.Produce --produce-window) records,
// in a later iteration, an operation an earlier one sent. responseTime
// counts from intended (or start, when earlier), service_time from start.
// It returns the end time.
func (it *Iter) RequestAt(query string, intended, start time.Duration, res Result) time.Duration {
	end := it.Clock.Now()
	if res.Err != nil && StoppedBy(it.ctx, res.Err) {
		return end
	}
	return it.op(Audit{Label: query}, min(intended, start), start, end, res)
}

// op records an operation timed from from (responseTime) and start
// (service_time) to end.
func (it *Iter) op(a Audit, from, start, end time.Duration, res Result) time.Duration {
	rt := end - from
	svc := int64(-1) // service_time exists only under the open model
	if it.scheduled {
		svc = int64((end - start) / time.Microsecond)
	}
	lat := int64(-1)
	if res.HasLatency {
		lat = int64(res.ServerLatency / time.Microsecond)
	}
	errMsg := ""
	if res.Err != nil {
		errMsg = res.Err.Error()
		it.connErr = it.connErr || (!it.scheduled && IsConnError(res.Err))
	}
	if h := a.HTTP; h != nil && a.HTTPIDs != nil {
		// One definition of a failed HTTP request: requests_failed,
		// http_req_failed, errors and the CSV agree. A response with a
		// status the scenario did not expect fails even without an error.
		if errMsg == "" && !h.Expected {
			errMsg = fmt.Sprintf("HTTP %d %s: not the expected status", h.Status, http.StatusText(h.Status))
		}
		h.Expected = errMsg == ""
	}
	it.failed = it.failed || errMsg != ""
	it.Rec.Op(end, int64(rt/time.Microsecond), svc, lat, res.Rows, errMsg)
	if h, ids := a.HTTP, a.HTTPIDs; h != nil && ids != nil {
		if h.FirstByte > 0 {
			h.Receiving = max(end-h.FirstByte, 0)
		}
		it.Rec.HTTP(end, ids, h)
	}
	if it.log == nil {
		return end
	}
	latency := time.Duration(-1)
	if res.HasLatency {
		latency = res.ServerLatency
	}
	if it.plain != nil && errMsg == "" && a.Op == nil && !a.HasAnswer && a.HTTP == nil &&
		it.plain.WritePlain(a.Label, latency, rt, res.Rows, it.unixBase+int64(end)) {
		return end // written as its fields
	}
	if it.ref != nil {
		// Every field but Time (left zero) is set anew.
		r := it.rec
		r.Query, r.Latency, r.ResponseTime = a.Label, latency, rt
		r.OK, r.Rows, r.Err = errMsg == "", res.Rows, errMsg
		r.Op, r.Answer, r.HasAnswer, r.HTTP = a.Op, a.Answer, a.HasAnswer, a.HTTP
		it.ref.WriteAt(r, it.Clock, end)
		return end
	}
	it.log.Write(output.RequestRecord{
		Time: it.Clock.Wall(end), Query: a.Label, Latency: latency, ResponseTime: rt,
		OK: errMsg == "", Rows: res.Rows, Err: errMsg,
		Op: a.Op, Answer: a.Answer, HasAnswer: a.HasAnswer, HTTP: a.HTTP,
	})
	return end
}

// Check records an unnamed check in the checks rate.
func (it *Iter) Check(ok bool) {
	now := it.Clock.Now()
	it.Rec.Rate(metric.IDChecks, now, ok)
	if it.events != nil {
		it.events.Check(it.Clock.Wall(now), 0, ok)
	}
}

// CheckAs records a named check: in the checks rate and in the check's own
// rate id, registered with metric.CheckMetric (e.g. "status is 200",
// "rows match the reference"), which the k6 summary lists under
// root_group.checks.
func (it *Iter) CheckAs(id metric.ID, ok bool) {
	now := it.Clock.Now()
	it.Rec.Rate(metric.IDChecks, now, ok)
	it.Rec.Rate(id, now, ok)
	if it.events != nil {
		it.events.Check(it.Clock.Wall(now), id, ok)
	}
}

// StoppedBy tells that err is the run's stop (ctx cancelled or past its
// deadline) rather than a failure of the target: such an operation or
// iteration is not recorded.
func StoppedBy(ctx context.Context, err error) bool {
	return ctx != nil && ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

// Init, Begin, BeginMeasured, End, Scheduled and Log are the engine's
// side of an Iter: an engine (stampede's, or a test's) makes one per VU
// with Init and starts each iteration with Begin. A workload never calls
// them.

// Init prepares it for VU vu (engine side): measurements go to rec, timed on clock,
// and each request to log (nil: no per-request log).
func (it *Iter) Init(vu int, rec Recorder, clock metric.Clock, log output.RequestWriter) {
	r := it.rec
	*it = Iter{VU: vu, Rec: rec, Clock: clock, log: log}
	if log != nil {
		it.events = output.EventsOf(log)
		it.ref, _ = log.(output.RefWriter)
		it.plain, _ = log.(output.PlainWriter)
		it.unixBase = clock.Base().UnixNano()
	}
	if it.ref != nil {
		if r == nil {
			r = &output.RequestRecord{}
		}
		it.rec = r
	}
}

// Begin starts an iteration (engine side) that started at start and was intended to
// start at intended; scheduled tells that an arrival-rate executor set
// intended (service_time is recorded as well). ctx is the iteration's.
func (it *Iter) Begin(ctx context.Context, start, intended time.Duration, scheduled bool) {
	it.Start, it.Intended, it.ctx, it.scheduled = start, intended, ctx, scheduled
	it.corrected, it.connErr, it.failed = false, false, false
}

// BeginMeasured starts a measured setup or teardown at start (engine
// side): its
// operations are timed from their own start.
func (it *Iter) BeginMeasured(ctx context.Context, start time.Duration) {
	it.Begin(ctx, start, start, false)
	it.corrected = true
}

// End finishes the iteration (engine side) that ended at end and
// returned err: an
// error not recorded as a failed operation (the iteration's operations
// all succeeded, or it made none) is recorded as one, timed over the
// iteration and labelled label, so that every output counts the same
// failures (errors = requests_failed). It tells the per-request log of
// the iteration, and returns whether the iteration failed to reach the
// target (its error, or an operation it recorded, was a connection error;
// closed model only). The engine counts the iteration in Rec itself.
func (it *Iter) End(label string, end time.Duration, err error) (connFailed bool) {
	if err != nil && !it.failed {
		it.op(Audit{Label: label}, it.Start, it.Start, end, Result{Err: err})
	}
	if it.events != nil {
		it.events.Iteration(it.Clock.Wall(end), end-it.Start, err != nil)
	}
	return it.connErr || (err != nil && IsConnError(err))
}

// Scheduled tells that the current iteration has an intended start set
// by an arrival-rate executor.
func (it *Iter) Scheduled() bool { return it.scheduled }

// Log is the per-request writer given to Init (nil: none), which the
// engine flushes and closes.
func (it *Iter) Log() output.RequestWriter { return it.log }
