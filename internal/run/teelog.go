package run

import (
	"errors"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// teeLog sends every request record to several request logs.
type teeLog []reqlog.Log

func (t teeLog) Writer(scenario string) reqlog.Writer {
	ws := make(teeWriter, len(t))
	for i, l := range t {
		ws[i] = l.Writer(scenario)
	}
	return ws
}

type teeWriter []reqlog.Writer

func (t teeWriter) Write(r reqlog.Record) {
	for _, w := range t {
		w.Write(r)
	}
}

// Flush forwards to the writers that buffer (reqlog.Flusher).
func (t teeWriter) Flush() {
	for _, w := range t {
		if f, ok := w.(reqlog.Flusher); ok {
			f.Flush()
		}
	}
}

// Iteration forwards to the writers that take events (reqlog.EventWriter).
func (t teeWriter) Iteration(at time.Time, d time.Duration, failed bool) {
	for _, w := range t {
		if e, ok := w.(reqlog.EventWriter); ok {
			e.Iteration(at, d, failed)
		}
	}
}

// Check forwards to the writers that take events (reqlog.EventWriter).
func (t teeWriter) Check(at time.Time, id metrics.ID, ok bool) {
	for _, w := range t {
		if e, is := w.(reqlog.EventWriter); is {
			e.Check(at, id, ok)
		}
	}
}

func (t teeWriter) Close() error {
	var errs []error
	for _, w := range t {
		errs = append(errs, w.Close())
	}
	return errors.Join(errs...)
}

// withLogs adds more request logs to log (nil: none yet). Without more,
// log is returned as it is, so that a run nobody asks request records of
// hands the engine no request log.
func withLogs(log reqlog.Log, more []reqlog.Log) reqlog.Log {
	if len(more) == 0 {
		return log
	}
	var t teeLog
	switch l := log.(type) {
	case nil:
	case teeLog:
		t = append(t, l...)
	default:
		t = append(t, l)
	}
	t = append(t, more...)
	if len(t) == 1 {
		return t[0]
	}
	return t
}
