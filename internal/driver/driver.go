// Package driver defines how stampede talks to a target: a Driver opens
// per-VU connections, a Conn performs one operation and reports rows, an
// optional server-side latency and an error. Drivers register by URL scheme.
package driver

import (
	"context"

	"github.com/stampede-bench/stampede/vu"
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

// Result is the outcome of one operation (vu.Result, what a VU records).
type Result = vu.Result

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
