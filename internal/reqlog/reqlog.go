// Package reqlog holds the per-request log record and the interfaces the
// engine writes it through. The engine fills records; outputs (the
// nebula-bench CSV, k6's JSON and CSV streams) write them. Both import this
// package and neither imports the other.
package reqlog

import "github.com/stampede-bench/stampede/output"

// The per-request log's record and interfaces are package output's
// (public, documented there).
type (
	Record = output.RequestRecord
	Log    = output.RequestLog
	Writer = output.RequestWriter
)
