// Package engine runs scenarios with k6's executors: it owns the VUs (one
// goroutine each, with their own connection), schedules iterations, and
// times them into per-VU recorders. It knows nothing about graphs or topics.
package engine

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
	"github.com/stampede-bench/stampede/output"
)

// Scenario makes VUs. Implementations live in workload packages.
type Scenario interface {
	// NewVU prepares VU id (0-based within the scenario), typically opening
	// its own connection. It may be called concurrently.
	NewVU(ctx context.Context, id int) (VU, error)
}

// VU is one virtual user. The engine calls Iterate from a single goroutine.
type VU interface {
	// Iterate performs one iteration. Operations are recorded through it;
	// a returned error counts as a failed iteration with that message.
	Iterate(ctx context.Context, it *Iter) error
	Close() error
}

// Setupper is implemented by scenarios that prepare the target once before
// their VUs start (create topics, warm caches).
type Setupper interface {
	Setup(ctx context.Context) error
}

// Teardowner is implemented by scenarios that clean up once after the run.
type Teardowner interface {
	Teardown(ctx context.Context) error
}

// MeasuredSetupper is a Setupper whose work is measured: Setup records
// its operations through it as an iteration does (they count in the
// request metrics, the per-request log and the scenario's totals) but is
// not an iteration. A k6 script's setup() is one: k6 counts its requests.
// The engine prefers it to Setupper.
type MeasuredSetupper interface {
	SetupMeasured(ctx context.Context, it *Iter) error
}

// MeasuredTeardowner is a Teardowner whose work is measured (a k6
// script's teardown()); the engine prefers it to Teardowner.
type MeasuredTeardowner interface {
	TeardownMeasured(ctx context.Context, it *Iter) error
}

// Noter is implemented by scenarios that have remarks for the summary once
// they ran (per-topic spread, churn phases, a found maximum rate).
type Noter interface {
	Notes() []string
}

// Iter is the context of one iteration, reused by its VU.
type Iter struct {
	// VU is the VU's id within the scenario; N counts its iterations from 0.
	VU int
	N  int64
	// Start is when the iteration actually started, Intended when it was
	// scheduled to start (equal under closed-model executors). Both are run
	// offsets.
	Start, Intended time.Duration

	Rec    *metrics.Recorder
	Clock  metrics.Clock
	log    reqlog.Writer
	events reqlog.EventWriter // log, when it takes iteration and check events
	ref    reqlog.RefWriter   // log, when it takes records by reference
	rec    reqlog.Record      // the record passed to ref, reused

	ctx       context.Context
	corrected bool
	scheduled bool // open model: the iteration has an intended start
	connErr   bool // an operation could not reach the target (closed model only)
	failed    bool // the iteration recorded a failed operation
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
func (it *Iter) Request(query string, start time.Duration, res driver.Result) time.Duration {
	return it.RequestAudit(Audit{Label: query}, start, res)
}

// Audit is what the per-request log shows of one operation so that its
// answer can be checked from the log alone.
type Audit struct {
	// Label is a short name of the request (scenario and parameters).
	// Without Op it fills the query column, with Op the label column.
	Label string
	// Op, when set, is the operation as sent: the query column holds its
	// statement with the arguments bound (Op.AppendStatement). It is
	// read only during the call.
	Op *driver.Op
	// Answer is the answer where rows alone do not show it (the length of
	// a shortest path, -1 for none), logged when HasAnswer.
	Answer    int64
	HasAnswer bool
	// HTTP, with HTTPIDs (registered with metrics.RegisterHTTP), holds
	// k6's HTTP measurements of an HTTP request; nil otherwise.
	HTTP    *metrics.HTTPSample
	HTTPIDs *metrics.HTTPIDs
}

// RequestHTTP is Request for an HTTP operation: it also records k6's HTTP
// metrics (ids, registered with metrics.RegisterHTTP) from h, and hands h
// to the per-request log. h and ids may be nil (then it is Request).
func (it *Iter) RequestHTTP(query string, start time.Duration, res driver.Result, ids *metrics.HTTPIDs, h *metrics.HTTPSample) time.Duration {
	return it.RequestAudit(Audit{Label: query, HTTP: h, HTTPIDs: ids}, start, res)
}

// RequestAudit is Request with the statement as sent, a label and an
// answer for the per-request log.
func (it *Iter) RequestAudit(a Audit, start time.Duration, res driver.Result) time.Duration {
	return it.RequestAuditAt(a, start, it.Clock.Now(), res)
}

// RequestAuditAt is RequestAudit for an operation that ended at end (a
// run offset, read when the call returned). A workload that checks an
// answer before recording it passes the end it read, so that the check's
// own time is not the operation's, and a wrong answer as res.Err: the
// operation is then a failed request in every output (errors,
// requests_failed, the per-request log's isSucceed and errorMsg).
func (it *Iter) RequestAuditAt(a Audit, start, end time.Duration, res driver.Result) time.Duration {
	if res.Err != nil && stoppedBy(it.ctx, res.Err) {
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
func (it *Iter) RequestAt(query string, intended, start time.Duration, res driver.Result) time.Duration {
	end := it.Clock.Now()
	if res.Err != nil && stoppedBy(it.ctx, res.Err) {
		return end
	}
	return it.op(Audit{Label: query}, min(intended, start), start, end, res)
}

// op records an operation timed from from (responseTime) and start
// (service_time) to end.
func (it *Iter) op(a Audit, from, start, end time.Duration, res driver.Result) time.Duration {
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
		it.connErr = it.connErr || (!it.scheduled && driver.IsConnError(res.Err))
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
	if it.log != nil {
		lat := time.Duration(-1)
		if res.HasLatency {
			lat = res.ServerLatency
		}
		var op output.Statement // stays nil without a.Op: a nil *driver.Op would be a non-nil Statement
		if a.Op != nil {
			op = a.Op
		}
		if it.ref != nil {
			// Every field but Time (left zero) is set anew.
			r := &it.rec
			r.Query, r.Latency, r.ResponseTime = a.Label, lat, rt
			r.OK, r.Rows, r.Err = errMsg == "", res.Rows, errMsg
			r.Op, r.Answer, r.HasAnswer, r.HTTP = op, a.Answer, a.HasAnswer, a.HTTP
			it.ref.WriteAt(r, it.Clock, end)
		} else {
			it.log.Write(reqlog.Record{
				Time: it.Clock.Wall(end), Query: a.Label, Latency: lat, ResponseTime: rt,
				OK: errMsg == "", Rows: res.Rows, Err: errMsg,
				Op: op, Answer: a.Answer, HasAnswer: a.HasAnswer, HTTP: a.HTTP,
			})
		}
	}
	return end
}

// Check records an unnamed check in the checks rate.
func (it *Iter) Check(ok bool) {
	now := it.Clock.Now()
	it.Rec.Rate(metrics.IDChecks, now, ok)
	if it.events != nil {
		it.events.Check(it.Clock.Wall(now), 0, ok)
	}
}

// CheckAs records a named check: in the checks rate and in the check's own
// rate id, registered with metrics.CheckMetric (e.g. "status is 200",
// "rows match the reference"), which the k6 summary lists under
// root_group.checks.
func (it *Iter) CheckAs(id metrics.ID, ok bool) {
	now := it.Clock.Now()
	it.Rec.Rate(metrics.IDChecks, now, ok)
	it.Rec.Rate(id, now, ok)
	if it.events != nil {
		it.events.Check(it.Clock.Wall(now), id, ok)
	}
}
