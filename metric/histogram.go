package metric

import (
	"encoding/base64"
	"fmt"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram geometry shared by every trend so that any two histograms merge
// exactly: 1 µs resolution up to one hour, 3 significant digits.
const (
	HistLowest  = 1
	HistHighest = 3_600_000_000
	HistSigFigs = 3
)

// NewHistogram returns an empty histogram with the shared geometry.
func NewHistogram() *hdr.Histogram {
	return hdr.New(HistLowest, HistHighest, HistSigFigs)
}

// NewZerosHistogram returns an empty histogram for zero values only, of
// the smallest geometry (a few hundred bytes, where NewHistogram's takes
// 188 KB): it reads, merges and encodes like any other histogram, as long
// as nothing but 0 is recorded in it.
func NewZerosHistogram() *hdr.Histogram { return hdr.New(1, 2, 1) }

// EncodeHistogram returns the compressed HdrHistogram V2 encoding in base64,
// the format of HdrHistogram interval logs, base64-encoded once more (the
// snapshot's format), as hdr.Histogram.Encode writes it but with a
// compressor reused from one call to the next.
func EncodeHistogram(h *hdr.Histogram) (string, error) {
	e := encoders.Get().(*histogramEncoder)
	defer encoders.Put(e)
	return e.Encode(h)
}

// DecodeHistogram reverses EncodeHistogram.
func DecodeHistogram(s string) (*hdr.Histogram, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	h, err := hdr.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return h, nil
}
