package metrics

import (
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// k6's built-in HTTP metric names (package metric's).
const (
	HTTPReqs           = metric.HTTPReqs
	HTTPReqDuration    = metric.HTTPReqDuration
	HTTPReqFailed      = metric.HTTPReqFailed
	HTTPReqBlocked     = metric.HTTPReqBlocked
	HTTPReqConnecting  = metric.HTTPReqConnecting
	HTTPReqTLS         = metric.HTTPReqTLS
	HTTPReqSending     = metric.HTTPReqSending
	HTTPReqWaiting     = metric.HTTPReqWaiting
	HTTPReqReceiving   = metric.HTTPReqReceiving
	DataSent           = metric.DataSent
	DataReceived       = metric.DataReceived
	ExpectedResponse   = metric.ExpectedResponse
	HTTPReqDurationExp = metric.HTTPReqDurationExp
)

// HTTPIDs are the IDs of the HTTP metrics in one Registry (metric.HTTPIDs).
type HTTPIDs = metric.HTTPIDs

// RegisterHTTP adds k6's HTTP metrics to r (idempotent) and returns their IDs.
func RegisterHTTP(r *Registry) (HTTPIDs, error) { return metric.RegisterHTTP(r) }

// HTTPSample is one HTTP request's k6 measurements (metric.HTTPSample).
type HTTPSample = metric.HTTPSample

// HTTP records one HTTP request's k6 metrics at time at.
func (r *Recorder) HTTP(at time.Duration, ids *HTTPIDs, s *HTTPSample) {
	b := r.batch(at)
	if b == nil {
		return
	}
	if len(b.Samples)+8 > cap(b.Samples) {
		r.flushFull()
		b = r.batch(at)
	}
	b.Counts[ids.Reqs]++
	b.Counts[ids.Sent] += s.Sent
	b.Counts[ids.Received] += s.Received
	if s.Expected {
		b.Fails[ids.Failed]++
	} else {
		b.Counts[ids.Failed]++ // k6 Rate: a failure is a "pass"
	}
	d := us(s.Duration())
	b.Samples = append(b.Samples, Sample{ID: ids.Duration, V: d}, Sample{ID: ids.Waiting, V: us(s.Waiting)})
	if s.Expected {
		b.Samples = append(b.Samples, Sample{ID: ids.DurationExpected, V: d})
	}
	// Phases that are mostly zero (a reused connection has no blocked,
	// connecting nor TLS time) are counted rather than appended.
	r.trendOrZero(b, ids.Blocked, us(s.Blocked))
	r.trendOrZero(b, ids.Connecting, us(s.Connecting))
	r.trendOrZero(b, ids.TLSHandshaking, us(s.TLSHandshaking))
	r.trendOrZero(b, ids.Sending, us(s.Sending))
	r.trendOrZero(b, ids.Receive, us(s.Receiving))
}

// trendOrZero records v in trend id: a zero is counted in the batch's
// Counts slot of the trend (unused otherwise), which the aggregator adds to
// the histogram's zero bucket at once.
func (r *Recorder) trendOrZero(b *Batch, id ID, v int64) {
	if v <= 0 {
		b.Counts[id]++
		return
	}
	b.Samples = append(b.Samples, Sample{ID: id, V: v})
}

func us(d time.Duration) int64 { return int64(d / time.Microsecond) }

// HTTPPhases returns k6's per-request HTTP trends in the order of a
// request's life, then http_req_duration (sending+waiting+receiving).
func HTTPPhases() []string {
	return []string{HTTPReqBlocked, HTTPReqConnecting, HTTPReqTLS, HTTPReqSending, HTTPReqWaiting, HTTPReqReceiving, HTTPReqDuration}
}

// IsHTTPPhase reports whether name is one of k6's HTTP phase trends
// other than http_req_duration (blocked, connecting, tls_handshaking,
// sending, waiting, receiving): live outputs that take k6's phases from
// the per-request records skip their per-second histograms.
func IsHTTPPhase(name string) bool {
	switch name {
	case HTTPReqBlocked, HTTPReqConnecting, HTTPReqTLS, HTTPReqSending, HTTPReqWaiting, HTTPReqReceiving:
		return true
	}
	return false
}

// MarkHTTPSeries marks http_req_duration and every HTTP phase of r for
// per-second histograms (MarkSeries), so that the per-second series
// (Point.TrendStats, series.jsonl) carry them; a registry without the HTTP
// metrics is left as it is. Call it before the aggregator is made.
func MarkHTTPSeries(r *Registry) {
	for _, name := range HTTPPhases() {
		if id, ok := r.Lookup(name); ok {
			r.MarkSeries(id)
		}
	}
}
