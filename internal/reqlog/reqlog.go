// Package reqlog holds the per-request log record and the interfaces the
// engine writes it through. The engine fills records; outputs (the
// nebula-bench CSV, k6's JSON and CSV streams) write them. Both import this
// package and neither imports the other.
package reqlog

import (
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// Record is one line of the per-request log (nebula-bench CSV).
type Record struct {
	Time         time.Time     // when the response arrived
	Query        string        // the statement or label
	Latency      time.Duration // server-reported; negative when unknown
	ResponseTime time.Duration // client-measured
	OK           bool
	Rows         int64
	Err          string
	// Op, when set, is the operation as sent (valid only during Write):
	// the log shows its statement with the arguments bound as the query,
	// and Query as the label.
	Op *driver.Op
	// Answer is the request's answer beyond Rows, when HasAnswer.
	Answer    int64
	HasAnswer bool
	// HTTP holds k6's HTTP measurements of an HTTP request (nil
	// otherwise). It is only valid during Write.
	HTTP *metrics.HTTPSample
}

// Log receives per-request records. Each VU gets its own writer so that
// logging needs no lock per request.
type Log interface {
	Writer(scenario string) Writer
}

// Writer buffers the records of one VU. Close flushes.
type Writer interface {
	Write(r Record)
	Close() error
}
