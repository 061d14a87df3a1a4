package metric

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Point is one second of one scenario: the unit of the per-second series,
// live outputs and plots. Counts are exact; the responseTime histogram of the
// second is included so that series from several processes merge exactly.
type Point struct {
	Scenario string    `json:"scenario"`
	Sec      int64     `json:"sec"` // seconds since the run started
	Time     time.Time `json:"time"`
	// Counts are the counters with a non-zero value, and each rate as
	// NAME (its non-zero samples, k6's "passes": passed checks, failed
	// requests for requests_failed) and NAME_total (all its samples):
	// read them with RateParts.
	Counts  map[string]int64 `json:"counts"`
	Errors  map[string]int64 `json:"errors,omitempty"` // by message
	VUs     int64            `json:"vus"`
	VUsMax  int64            `json:"vus_max,omitempty"` // VUs allocated so far
	RT      PointStats       `json:"rt"`                // responseTime of the second, µs
	HistEnc string           `json:"hdr,omitempty"`     // Hist in the compressed HdrHistogram encoding (EncodeHistogram), as series.jsonl holds it
	// Hist is the responseTime histogram of the second. It is only valid
	// during an Output.Observe call and is never serialized directly.
	Hist *hdr.Histogram `json:"-"`
	// Trends are the per-second histograms of the trends marked as per-second series
	// (e.g. http_req_duration), by name; valid only
	// during an Observer call, never serialized.
	Trends map[string]*hdr.Histogram `json:"-"`
	// TrendStats summarize Trends (µs), by name, so that series.jsonl
	// keeps the per-second figures of the marked trends (the HTTP phases
	// the report and the web dashboard draw); empty when none is marked.
	TrendStats map[string]PointStats `json:"trends,omitempty"`
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
	q := h.ValueAtPercentilesSlice([]float64{50, 90, 95, 99, 100}) // the 100th is Max (Trend.Stats)
	return PointStats{N: h.TotalCount(), Mean: h.Mean(), P50: q[0], P90: q[1], P95: q[2], P99: q[3], Max: q[4]}
}

// RateTotalSuffix ends the key of a rate's sample count in Point.Counts:
// requests_failed_total counts every request, requests_failed the failed
// ones. (A "_fail" key, k6's zero samples, read inverted for the failure
// rates: requests_failed_fail counted the successful requests.)
const RateTotalSuffix = "_total"

// RateParts returns k6's passes (non-zero samples) and fails (zero
// samples) of rate name from counts keyed as Point.Counts.
func RateParts(counts map[string]int64, name string) (passes, fails int64) {
	passes = counts[name]
	return passes, counts[name+RateTotalSuffix] - passes
}
