package metrics

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Point is one second of one scenario: the unit of the per-second series,
// live outputs and plots. Counts are exact; the responseTime histogram of the
// second is included so that series from several processes merge exactly.
type Point struct {
	Scenario string           `json:"scenario"`
	Sec      int64            `json:"sec"` // seconds since the run started
	Time     time.Time        `json:"time"`
	Counts   map[string]int64 `json:"counts"`           // counters with a non-zero value; rates as NAME and NAME_fail
	Errors   map[string]int64 `json:"errors,omitempty"` // by message
	VUs      int64            `json:"vus"`
	VUsMax   int64            `json:"vus_max,omitempty"` // VUs allocated so far
	RT       PointStats       `json:"rt"`                // responseTime of the second, µs
	HistEnc  string           `json:"hdr,omitempty"`
	// Hist is the responseTime histogram of the second. It is only valid
	// during an Observer call and is never serialized directly.
	Hist *hdr.Histogram `json:"-"`
	// Trends are the per-second histograms of the trends marked with
	// Registry.MarkSeries (e.g. http_req_duration), by name; valid only
	// during an Observer call, never serialized.
	Trends map[string]*hdr.Histogram `json:"-"`
}

// PointStats summarize a histogram of one second, µs.
type PointStats struct {
	N    int64   `json:"n"`
	Mean float64 `json:"mean"`
	P50  int64   `json:"p50"`
	P90  int64   `json:"p90"`
	P95  int64   `json:"p95"`
	P99  int64   `json:"p99"`
	Max  int64   `json:"max"`
}

// StatsOf summarizes h.
func StatsOf(h *hdr.Histogram) PointStats {
	if h == nil || h.TotalCount() == 0 {
		return PointStats{}
	}
	q := h.ValueAtPercentilesSlice([]float64{50, 90, 95, 99})
	return PointStats{N: h.TotalCount(), Mean: h.Mean(), P50: q[0], P90: q[1], P95: q[2], P99: q[3], Max: h.Max()}
}

// Observer receives every finished second. It runs on the aggregator
// goroutine: it must return quickly and must not keep p.Hist.
type Observer func(p *Point)
