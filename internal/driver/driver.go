// Package driver defines how stampede talks to a target: a Driver opens
// per-VU connections, a Conn performs one operation and reports rows, an
// optional server-side latency and an error. Drivers register by URL scheme.
package driver

import (
	"context"
	"time"
)

// Op is one operation for a target. Its meaning depends on the driver: a
// SQL statement with bind arguments, an HTTP request path with a body, a
// topic with a message value.
type Op struct {
	// Query is the statement, path or topic.
	Query string
	// Args are bind parameters.
	Args []any
	// Body is a payload (HTTP body, message value).
	Body []byte
	// Ext carries driver-specific settings (e.g. HTTP method and headers).
	Ext any
}

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

// Conn is one connection, used by one VU at a time.
type Conn interface {
	Do(ctx context.Context, op *Op) Result
	Close() error
}

// Driver opens connections to one target.
type Driver interface {
	Conn(ctx context.Context) (Conn, error)
	Close() error
}

// Versioner is implemented by drivers that can ask the target its version.
type Versioner interface {
	Version(ctx context.Context) (string, error)
}
