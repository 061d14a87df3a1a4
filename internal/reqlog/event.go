package reqlog

import "github.com/stampede-bench/stampede/output"

// What a per-request writer may take besides records; package output
// documents each.
type (
	EventWriter = output.EventWriter
	Flusher     = output.Flusher
	EventFilter = output.EventFilter
	RefWriter   = output.RefWriter
	PlainWriter = output.PlainWriter
)

// EventsOf returns w as an EventWriter when it takes events, else nil.
func EventsOf(w Writer) EventWriter { return output.EventsOf(w) }
