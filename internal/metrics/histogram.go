package metrics

import (
	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// record adds v, clamping into the trackable range so no sample is lost:
// negatives count as 0 and values above an hour as HistHighest.
func record(h *hdr.Histogram, v int64) {
	if v < 0 {
		v = 0
	} else if v > HistHighest {
		v = HistHighest
	}
	_ = h.RecordValue(v) // cannot fail inside the range
}
