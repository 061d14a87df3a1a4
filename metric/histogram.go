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

// EncodeHistogram returns the compressed HdrHistogram V2 encoding in base64,
// the format of HdrHistogram interval logs.
func EncodeHistogram(h *hdr.Histogram) (string, error) {
	b, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	return base64.StdEncoding.EncodeToString(b), nil
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
