package output

import (
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// EventWriter is implemented by RequestWriters that also take what a VU
// does besides requests, so that per-sample outputs (k6's JSON and CSV
// streams, InfluxDB, remote write) can write k6's iterations,
// iteration_duration and checks samples. The engine finds it by type
// assertion on each VU's writer (EventsOf) and calls it from that VU's
// goroutine.
type EventWriter interface {
	// Iteration is one finished iteration: at is when it ended, d its
	// duration; failed tells that it returned an error.
	Iteration(at time.Time, d time.Duration, failed bool)
	// Check is one check result at at: id is the named check's rate
	// (metric.CheckMetric; 0 for an unnamed check).
	Check(at time.Time, id metric.ID, ok bool)
}

// Flusher is implemented by RequestWriters that buffer records per VU:
// Flush hands what the VU's writer holds to the output now. The engine
// calls it from the VU's goroutine when the VU is about to wait (a slow
// iteration, a back-off), so that a VU holds no buffered records while it
// is idle: the memory of many slow VUs stays that of the records in
// flight, and their rows reach the output soon after their requests.
type Flusher interface {
	Flush()
}

// EventFilter is implemented by EventWriters whose format may have no
// events (one writer type for several formats): the engine passes them
// none when Events reports false, which saves a wall-clock conversion
// and a call per iteration.
type EventFilter interface {
	Events() bool
}

// EventsOf returns w as an EventWriter when it takes events, else nil.
func EventsOf(w RequestWriter) EventWriter {
	e, ok := w.(EventWriter)
	if !ok {
		return nil
	}
	if f, ok := w.(EventFilter); ok && !f.Events() {
		return nil
	}
	return e
}

// RefWriter is implemented by RequestWriters that take a record by
// reference, its time as a run offset: the engine fills one record per
// VU and passes its address with Time left zero, the request having ended
// at offset at of clock (its time is clock.Wall(at)). That saves copying
// the record per request (and converting its time, for a writer that
// needs it only now and then). r is valid only during the call.
type RefWriter interface {
	WriteAt(r *RequestRecord, clock metric.Clock, at time.Duration)
}

// PlainWriter is implemented by RequestWriters that take a plain request
// — a successful one without Op, answer or HTTP sample, most of a fast
// run's requests — as its fields, when they can do so cheaply: query,
// latency (negative when unknown), responseTime and rows as in
// RequestRecord, and the request's end as Unix nanoseconds (wall clock,
// as time.Time.UnixNano). WritePlain writes what WriteAt or Write would
// of that record (OK set, the other fields zero) and returns true, or
// returns false having written nothing. The engine tries it first for
// every plain request, from the VU's goroutine, and passes the record
// the usual way when it returns false: the common case costs neither a
// record nor a clock.
type PlainWriter interface {
	WritePlain(query string, latency, responseTime time.Duration, rows int64, unixNano int64) bool
}
