package vu

import (
	"errors"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/stampede-bench/stampede/metric"
	"github.com/stampede-bench/stampede/output"
)

// Result is the outcome of one operation.
type Result struct {
	// Rows is the number of result rows (or records, or response items).
	Rows int64
	// ServerLatency is the latency the target reported, when HasLatency.
	ServerLatency time.Duration
	HasLatency    bool
	// Status is the target's status code where the protocol has one (HTTP);
	// 0 otherwise.
	Status int
	// Err is non-nil when the operation failed. Its message is what users
	// see in the errors-by-message breakdown: keep it stable (no ids or
	// timestamps in it) so identical failures group together.
	Err error
}

// Audit is what the per-request log shows of one operation so that its
// answer can be checked from the log alone.
type Audit struct {
	// Label is a short name of the request (scenario and parameters).
	// Without Op it fills the query column, with Op the label column.
	Label string
	// Op, when set, is the operation as sent: the query column holds its
	// statement with the arguments bound. It is read only during the call.
	Op output.Statement
	// Answer is the answer where rows alone do not show it (the length of
	// a shortest path, -1 for none), logged when HasAnswer.
	Answer    int64
	HasAnswer bool
	// HTTP, with HTTPIDs (registered with metric.RegisterHTTP), holds
	// k6's HTTP measurements of an HTTP request; nil otherwise.
	HTTP    *metric.HTTPSample
	HTTPIDs *metric.HTTPIDs
}

// IsConnError reports whether err says the target could not be reached or
// dropped the connection (refused, reset, unreachable, failed dial), as
// opposed to an error the target answered with. Errors whose chain was
// flattened to text are recognised by their message. Under the closed
// model the engine backs a VU off after an iteration that met one.
func IsConnError(err error) bool {
	if err == nil {
		return false
	}
	for _, e := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED, syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.EPIPE} {
		if errors.Is(err, e) {
			return true
		}
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, s := range []string{"connection refused", "connection reset", "broken pipe", "no route to host", "network is unreachable", "failed to connect", "server closed the connection", "unexpected eof"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
