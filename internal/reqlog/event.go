package reqlog

import (
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// EventWriter is implemented by Writers that also take what a VU does
// besides requests, so that per-sample outputs (k6's JSON and CSV
// streams, InfluxDB, remote write) can write k6's iterations,
// iteration_duration and checks samples. The engine finds it by type
// assertion on each VU's Writer and calls it from that VU's goroutine.
type EventWriter interface {
	// Iteration is one finished iteration: at is when it ended, d its
	// duration; failed tells that it returned an error.
	Iteration(at time.Time, d time.Duration, failed bool)
	// Check is one check result at at: id is the named check's rate
	// (metrics.CheckMetric; 0 for an unnamed check).
	Check(at time.Time, id metrics.ID, ok bool)
}

// Flusher is implemented by Writers that buffer records per VU: Flush
// hands what the VU's writer holds to the output now. The engine calls it
// from the VU's goroutine when the VU is about to wait (a slow iteration,
// a back-off), so that a VU holds no buffered records while it is idle:
// the memory of many slow VUs stays that of the records in flight, and
// their rows reach the output soon after their requests.
type Flusher interface {
	Flush()
}
