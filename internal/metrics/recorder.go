package metrics

import (
	"sync/atomic"
	"time"
)

// Recorder collects the measurements of one VU. It is owned by that VU's
// goroutine: methods must not be called concurrently, and no method takes a
// lock. Times are offsets since the run start (see Clock); a sample belongs
// to the second in which it was taken.
//
// Samples taken before the warm-up end are discarded.
type Recorder struct {
	agg      *Aggregator
	scenario int
	warmEnd  time.Duration
	cur      *Batch
	class    int          // size class of the next batch (see classFor)
	live     atomic.Int64 // iterations published for live views
}

// Trend records value v (µs for time trends) of trend id taken at time at.
func (r *Recorder) Trend(id ID, at time.Duration, v int64) {
	b := r.batch(at)
	if b == nil {
		return
	}
	b.Samples = append(b.Samples, Sample{ID: id, V: v})
	if len(b.Samples) == cap(b.Samples) {
		r.flushFull()
	}
}

// Op records one operation that ended at time at, in one step: its
// responseTime rt and, when different, its uncorrected service time svc
// (negative: same as rt), server latency lat (negative: unknown) and rows.
// A failed operation (errMsg non-empty) records no rows nor latency.
func (r *Recorder) Op(at time.Duration, rt, svc, lat, rows int64, errMsg string) {
	b := r.batch(at)
	if b == nil {
		return
	}
	if len(b.Samples)+4 > cap(b.Samples) {
		r.flushFull()
		b = r.batch(at)
	}
	b.Counts[IDRequests]++
	b.Samples = append(b.Samples, Sample{ID: IDResponseTime, V: rt})
	if svc >= 0 {
		b.Samples = append(b.Samples, Sample{ID: IDServiceTime, V: svc})
	}
	if errMsg != "" {
		b.Counts[IDRequestsFailed]++ // k6 Rate: a failure is a "pass" (non-zero sample)
		r.Error(at, errMsg)
		return
	}
	b.Fails[IDRequestsFailed]++
	b.Samples = append(b.Samples, Sample{ID: IDRows, V: rows})
	if lat >= 0 {
		b.Samples = append(b.Samples, Sample{ID: IDLatency, V: lat})
	}
}

// Add adds n to counter id at time at.
func (r *Recorder) Add(id ID, at time.Duration, n int64) {
	if b := r.batch(at); b != nil {
		b.Counts[id] += n
	}
}

// Rate records one pass or fail of rate id (e.g. checks) at time at.
func (r *Recorder) Rate(id ID, at time.Duration, pass bool) {
	if b := r.batch(at); b != nil {
		if pass {
			b.Counts[id]++
		} else {
			b.Fails[id]++
		}
	}
}

// Error counts one error with message msg at time at (and the errors counter).
func (r *Recorder) Error(at time.Duration, msg string) {
	b := r.batch(at)
	if b == nil {
		return
	}
	b.Counts[IDErrors]++
	for i := range b.Errors {
		if b.Errors[i].Msg == msg {
			b.Errors[i].N++
			return
		}
	}
	b.Errors = append(b.Errors, errCount{Msg: msg, N: 1})
}

// Iteration counts one completed iteration that took d, ending at time at.
func (r *Recorder) Iteration(at, d time.Duration) {
	b := r.batch(at)
	if b == nil {
		return
	}
	b.Counts[IDIterations]++
	b.Samples = append(b.Samples, Sample{ID: IDIterationDuration, V: int64(d / time.Microsecond)})
	r.live.Store(r.live.Load() + 1)
	if len(b.Samples) >= cap(b.Samples) {
		r.flushFull()
	}
}

// Tick hands over a batch whose second has passed. VUs call it before
// operations that may block, so that their samples reach the live view and
// the per-second series on time.
func (r *Recorder) Tick(now time.Duration) {
	if r.cur != nil && r.cur.Sec != secOf(now) {
		r.flush()
	}
}

// Flush hands over everything buffered. Call it when the VU stops.
func (r *Recorder) Flush() {
	if r.cur != nil {
		r.flush()
	}
}

// LiveIterations is the number of iterations this recorder has counted,
// readable from any goroutine.
func (r *Recorder) LiveIterations() int64 { return r.live.Load() }

func (r *Recorder) batch(at time.Duration) *Batch {
	if at < r.warmEnd {
		return nil
	}
	sec := secOf(at)
	if r.cur != nil && r.cur.Sec != sec {
		r.flush()
	}
	if r.cur == nil {
		r.cur = r.agg.pool.get(r.scenario, sec, r.class)
	}
	return r.cur
}

// flushFull hands over a batch that has no room left; flush one whose
// second ended or that its VU hands over early.
func (r *Recorder) flushFull() { r.handOver(true) }
func (r *Recorder) flush()     { r.handOver(false) }

func (r *Recorder) handOver(full bool) {
	r.class = classFor(len(r.cur.Samples), cap(r.cur.Samples), full)
	r.agg.in <- r.cur // blocks rather than drops when the aggregator lags
	r.cur = nil
}

func secOf(d time.Duration) int64 {
	if d < 0 {
		return -1
	}
	return int64(d / time.Second)
}
