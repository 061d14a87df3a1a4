package metrics

import (
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// k6's built-in HTTP metric names, with k6's kinds and units (see
// RegisterHTTP). Time trends are recorded in µs and shown in ms like k6.
const (
	HTTPReqs           = "http_reqs"                // counter: HTTP requests sent
	HTTPReqDuration    = "http_req_duration"        // trend: sending + waiting + receiving
	HTTPReqFailed      = "http_req_failed"          // rate: passes = failed requests (status ≥ 400 or no response)
	HTTPReqBlocked     = "http_req_blocked"         // trend: before the request could be sent (includes connecting and TLS)
	HTTPReqConnecting  = "http_req_connecting"      // trend: TCP connect (0 on a reused connection)
	HTTPReqTLS         = "http_req_tls_handshaking" // trend: TLS handshake (0 on plain HTTP or a reused connection)
	HTTPReqSending     = "http_req_sending"         // trend: writing the request
	HTTPReqWaiting     = "http_req_waiting"         // trend: request written → first response byte (TTFB)
	HTTPReqReceiving   = "http_req_receiving"       // trend: first response byte → whole response read
	DataSent           = "data_sent"                // counter, bytes: written to the socket
	DataReceived       = "data_received"            // counter, bytes: read from the socket
	ExpectedResponse   = "expected_response"        // the tag of k6's http_req_duration{expected_response:true}
	HTTPReqDurationExp = HTTPReqDuration + "{" + ExpectedResponse + ":true}"
)

// HTTPIDs are the IDs of the HTTP metrics in one Registry.
type HTTPIDs struct {
	Reqs, Duration, DurationExpected, Failed                       ID
	Blocked, Connecting, TLSHandshaking, Sending, Waiting, Receive ID
	Sent, Received                                                 ID
}

// RegisterHTTP adds k6's HTTP metrics to r (idempotent) and returns their IDs.
func RegisterHTTP(r *Registry) (HTTPIDs, error) {
	var ids HTTPIDs
	for _, m := range []struct {
		id *ID
		d  Def
	}{
		{&ids.Reqs, Def{Name: HTTPReqs, Kind: KindCounter, Unit: UnitNone}},
		{&ids.Duration, Def{Name: HTTPReqDuration, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.DurationExpected, Def{Name: HTTPReqDurationExp, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Failed, Def{Name: HTTPReqFailed, Kind: KindRate, Unit: UnitNone}},
		{&ids.Blocked, Def{Name: HTTPReqBlocked, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Connecting, Def{Name: HTTPReqConnecting, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.TLSHandshaking, Def{Name: HTTPReqTLS, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Sending, Def{Name: HTTPReqSending, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Waiting, Def{Name: HTTPReqWaiting, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Receive, Def{Name: HTTPReqReceiving, Kind: KindTrend, Unit: UnitMicros}},
		{&ids.Sent, Def{Name: DataSent, Kind: KindCounter, Unit: UnitBytes}},
		{&ids.Received, Def{Name: DataReceived, Kind: KindCounter, Unit: UnitBytes}},
	} {
		id, err := r.Add(m.d)
		if err != nil {
			return ids, err
		}
		*m.id = id
	}
	return ids, nil
}

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
