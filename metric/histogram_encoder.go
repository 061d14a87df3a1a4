package metric

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// histogramEncoder writes histograms in the encoding of
// hdr.Histogram.Encode, byte for byte, keeping its compressor and buffers
// from one histogram to the next: the library makes a compressor of about
// 700 KB for every histogram, which a run's series paid each second and
// its snapshot once per trend. One goroutine at a time.
type histogramEncoder struct {
	zw       *zlib.Writer
	raw, z   bytes.Buffer
	out, b64 []byte
}

// The V2 encoding's cookies (hdrhistogram-go's, word size 8).
const (
	v2Cookie           = hdr.V2EncodingCookieBase | 0x10
	v2CompressedCookie = hdr.V2CompressedEncodingCookieBase | 0x10
)

// encoders keeps histogramEncoders for EncodeHistogram: a cache, which
// changes nothing but how often a compressor is made.
var encoders = sync.Pool{New: func() any { return new(histogramEncoder) }}

// Encode returns h in the compressed HdrHistogram V2 encoding, base64
// encoded twice (EncodeHistogram's format).
func (e *histogramEncoder) Encode(h *hdr.Histogram) (string, error) {
	snap := h.Export()
	counts := snap.Counts
	// The counts up to the last recorded value's, as the library's encoder
	// writes them (one zero for an empty histogram).
	limit := 1
	for i := len(counts) - 1; i >= 0; i-- {
		if counts[i] != 0 {
			limit = i + 1
			break
		}
	}
	e.raw.Reset()
	var hdrBuf [40]byte
	e.raw.Write(hdrBuf[:]) // the header, filled in below once the payload's length is known
	for i := 0; i < limit; {
		c := counts[i]
		i++
		if c == 0 {
			zeros := int64(1)
			for i < limit && counts[i] == 0 {
				zeros++
				i++
			}
			if zeros > 1 {
				c = -zeros // a run of zeros
			}
		}
		e.putZigZag(c)
	}
	ratio := snap.IntegerToDoubleConversionRatio
	if ratio == 0 {
		ratio = 1
	}
	raw := e.raw.Bytes()
	binary.BigEndian.PutUint32(raw[0:], uint32(v2Cookie))
	binary.BigEndian.PutUint32(raw[4:], uint32(len(raw)-40))
	binary.BigEndian.PutUint32(raw[8:], 0) // normalizing index offset
	binary.BigEndian.PutUint32(raw[12:], uint32(int32(snap.SignificantFigures)))
	binary.BigEndian.PutUint64(raw[16:], uint64(snap.LowestTrackableValue))
	binary.BigEndian.PutUint64(raw[24:], uint64(snap.HighestTrackableValue))
	binary.BigEndian.PutUint64(raw[32:], math.Float64bits(ratio))

	e.z.Reset()
	if e.zw == nil {
		zw, err := zlib.NewWriterLevel(&e.z, zlib.BestCompression)
		if err != nil {
			return "", fmt.Errorf("encode histogram: %w", err)
		}
		e.zw = zw
	} else {
		e.zw.Reset(&e.z)
	}
	if _, err := e.zw.Write(raw); err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	if err := e.zw.Close(); err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	e.out = binary.BigEndian.AppendUint32(e.out[:0], uint32(v2CompressedCookie))
	e.out = binary.BigEndian.AppendUint32(e.out, uint32(e.z.Len()))
	e.out = append(e.out, e.z.Bytes()...)
	e.b64 = base64.StdEncoding.AppendEncode(e.b64[:0], e.out)
	return base64.StdEncoding.EncodeToString(e.b64), nil
}

// putZigZag appends v as the V2 encoding's ZigZag LEB128 (at most 9 bytes:
// the ninth holds 8 bits).
func (e *histogramEncoder) putZigZag(v int64) {
	u := uint64((v << 1) ^ (v >> 63))
	for i := 0; i < 8; i++ {
		if u>>7 == 0 {
			e.raw.WriteByte(byte(u))
			return
		}
		e.raw.WriteByte(byte(u&0x7f | 0x80))
		u >>= 7
	}
	e.raw.WriteByte(byte(u))
}
