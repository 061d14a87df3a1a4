package csvlog

import (
	"encoding/binary"
	"time"
	"unsafe"
)

// Sizes of the common row (Writer.WritePlain).
const (
	// preSize is the longest prefix (stamp, query and their commas) of
	// a common row; it is copied 32 or 64 bytes at once.
	preSize = 64
	// rowMax bounds a common row's length: the prefix, then three
	// numbers of at most 8 digits, three commas, isSucceed and ",,,\n"
	// (100 bytes at most). Indexes into a row are masked with rowMax−1,
	// which keeps them as they are and tells the compiler that they are
	// in range (no bounds checks).
	rowMax = 128
	// rowRoom is the room a common row needs in a buffer: rowMax and
	// the 7 bytes an 8-byte store may write past the end of the row.
	rowRoom = rowMax + 8
	// maxNumber bounds the numbers of a common row: latency and
	// responseTime below 100 s, rows below 10⁸ (digits8).
	maxNumber = 1e8
)

// The constant columns of the common row as little-endian words
// (",true,", ",,,\n"), each stored at once.
const (
	okTrue   = uint64(',') | uint64('t')<<8 | uint64('r')<<16 | uint64('u')<<24 | uint64('e')<<32 | uint64(',')<<40
	lastCols = uint32(',') | uint32(',')<<8 | uint32(',')<<16 | uint32('\n')<<24
)

// WritePlain writes a plain request (reqlog.PlainWriter: successful,
// without Op, answer or HTTP sample) that ended at unixNano when it is a
// busy VU's common row — numbers below maxNumber, in the second and with
// the query of the VU's last row (which WriteAt or Write made current) —
// and reports whether it did.
//
// The row is written in place in the VU's buffer: the cached prefix
// (stamp and query, encoder.pre) copied in blocks, a one-digit number as
// one byte and a longer one as 8 (digits8), the constant columns as one
// store each; no call, no allocation, no bounds check. It is the same
// bytes as appendRest's (TestWritePlainMatchesAppendRecord).
func (w *Writer) WritePlain(query string, latency, responseTime time.Duration, rows int64, unixNano int64) bool {
	// A direct writer has no buffer (it fails the room check), one with
	// another format no prefix (preN is −1): neither gets past.
	e, n := &w.enc, len(w.buf)
	if cap(w.buf)-n < rowRoom || uint64(unixNano-e.nsLo) >= uint64(time.Second) ||
		unsafe.StringData(query) != e.preQ || len(query) != e.preN ||
		latency >= maxNumber*time.Microsecond || uint64(responseTime) >= maxNumber*uint64(time.Microsecond) ||
		uint64(rows) >= maxNumber {
		return false
	}
	p := (*[rowRoom]byte)(w.buf[n : n+rowRoom])
	// In 16-byte blocks: one move each (a bigger block between two arrays
	// that may overlap is a call to memmove).
	*(*[16]byte)(p[0:16]) = *(*[16]byte)(e.pre[0:16])
	*(*[16]byte)(p[16:32]) = *(*[16]byte)(e.pre[16:32])
	i := e.npre
	if i > 32 {
		*(*[16]byte)(p[32:48]) = *(*[16]byte)(e.pre[32:48])
		*(*[16]byte)(p[48:64]) = *(*[16]byte)(e.pre[48:64])
	}
	le := binary.LittleEndian
	// Each number is one byte when it has one digit, else 8 (digits8),
	// the digits first: what follows overwrites the zeros after them.
	if latency >= 0 { // else unknown: empty
		if u := uint64(latency) / uint64(time.Microsecond); u < 10 {
			p[i&(rowMax-1)] = byte('0' + u)
			i++
		} else {
			v, k := digits8(u)
			j := i & (rowMax - 1)
			le.PutUint64(p[j:j+8], v)
			i += k
		}
	}
	p[i&(rowMax-1)] = ','
	i++
	if u := uint64(responseTime) / uint64(time.Microsecond); u < 10 {
		p[i&(rowMax-1)] = byte('0' + u)
		i++
	} else {
		v, k := digits8(u)
		j := i & (rowMax - 1)
		le.PutUint64(p[j:j+8], v)
		i += k
	}
	j := i & (rowMax - 1)
	le.PutUint64(p[j:j+8], okTrue)
	i += len(",true,")
	if u := uint64(rows); u < 10 {
		p[i&(rowMax-1)] = byte('0' + u)
		i++
	} else {
		v, k := digits8(u)
		j := i & (rowMax - 1)
		le.PutUint64(p[j:j+8], v)
		i += k
	}
	j = i & (rowMax - 1)
	le.PutUint32(p[j:j+4], lastCols)
	n += i + len(",,,\n")
	w.buf = w.buf[:n]
	w.n++
	if int64(n) >= w.log.handoff.Load() {
		w.handoff()
	}
	return true
}
