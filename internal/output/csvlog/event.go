package csvlog

import (
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// EventEncoder is implemented by RecordEncoders whose format also holds
// iterations and checks (k6's JSON and CSV streams): the Writer then
// passes them the engine's events (reqlog.EventWriter). Events are not
// counted in Rows.
type EventEncoder interface {
	AppendIteration(b []byte, at time.Time, d time.Duration, failed bool) []byte
	AppendCheck(b []byte, at time.Time, id metrics.ID, ok bool) []byte
}

var (
	_ reqlog.EventWriter = (*Writer)(nil)
	_ reqlog.EventFilter = (*Writer)(nil)
)

// Events implements reqlog.EventFilter: only an EventEncoder's format
// has events (the nebula-bench CSV has none).
func (w *Writer) Events() bool {
	_, ok := w.custom.(EventEncoder)
	return ok
}

// Iteration implements reqlog.EventWriter: a no-op unless the log's
// encoder is an EventEncoder.
func (w *Writer) Iteration(at time.Time, d time.Duration, failed bool) {
	if e, ok := w.custom.(EventEncoder); ok {
		w.event(func(b []byte) []byte { return e.AppendIteration(b, at, d, failed) })
	}
}

// Check implements reqlog.EventWriter: a no-op unless the log's encoder
// is an EventEncoder.
func (w *Writer) Check(at time.Time, id metrics.ID, ok bool) {
	if e, is := w.custom.(EventEncoder); is {
		w.event(func(b []byte) []byte { return e.AppendCheck(b, at, id, ok) })
	}
}

func (w *Writer) event(appendTo func([]byte) []byte) {
	if w.direct {
		w.afterDirect(appendTo(w.scratch[:w.sn]), 0)
		return
	}
	if w.buf == nil {
		w.buf = w.log.getBuf()
	}
	w.buf = appendTo(w.buf)
	if int64(len(w.buf)) >= w.log.handoff.Load() {
		w.handoff()
	}
}
