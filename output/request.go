package output

import (
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// RequestRecord is one request as the per-request log holds it (a line of
// requests.csv) and as a RequestLogger receives it.
type RequestRecord struct {
	// Time is when the response arrived (wall clock).
	Time time.Time
	// Query is the statement or label: what a Go scenario gave
	// Iteration.RecordRequest, the statement as sent for the built-in
	// families.
	Query string
	// Latency is what the server reported; negative when unknown.
	Latency time.Duration
	// ResponseTime is what stampede measured, from the intended start
	// under arrival-rate executors.
	ResponseTime time.Duration
	// OK is false when the request failed; Err then says why.
	OK bool
	// Rows is the number of result rows (records, items).
	Rows int64
	Err  string
	// Op, when set, is the operation as sent (valid only during Write):
	// the log shows its statement with the arguments bound as the query,
	// and Query as the label. Set by the built-in graph family.
	Op Statement
	// Answer is the request's answer beyond Rows (the length of a
	// shortest path, -1 for none), when HasAnswer.
	Answer    int64
	HasAnswer bool
	// HTTP holds k6's HTTP measurements of an HTTP request (nil
	// otherwise). It is only valid during Write.
	HTTP *metric.HTTPSample
}

// Statement is an operation as sent to the target, which renders itself
// with its arguments bound: AppendStatement appends that text to dst.
type Statement interface {
	AppendStatement(dst []byte) []byte
}

// RequestLog receives per-request records. Each VU gets its own writer,
// so that logging needs no lock per request.
type RequestLog interface {
	Writer(scenario string) RequestWriter
}

// RequestWriter receives the records of one VU: Write for each request,
// on the VU's goroutine (it must not block, nor keep r.Op or r.HTTP after
// it returns); Close once, when the VU ends.
type RequestWriter interface {
	Write(r RequestRecord)
	Close() error
}

// RequestLogger is an Output that also receives every request record of
// the run (what the per-request CSV holds), through one RequestWriter per
// VU so that no lock is taken per request:
//
//   - Writer(scenario) is called once for each VU of the scenario as the
//     VU is made, after Start, from several goroutines at once: it must be
//     safe for concurrent use.
//   - Write(r) is called on the VU's own goroutine right after each
//     request is recorded, on the recording path: it must not block (no
//     unbuffered I/O, no lock shared by all VUs held for long) and must
//     not keep r.Op or r.HTTP after it returns. One writer is never called
//     concurrently.
//   - Close is called once when the VU ends, before the output's Stop.
//
// A run whose outputs have no RequestLogger (and no request CSV) hands
// the engine no request log at all, so the recording path costs nothing
// more than without outputs.
type RequestLogger interface {
	Output
	RequestLog
}
