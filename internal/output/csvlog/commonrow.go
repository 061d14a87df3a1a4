package csvlog

import (
	"encoding/binary"
	"time"
	"unsafe"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// Sizes of the common row (Writer.WriteAt).
const (
	// preSize is the longest prefix (stamp, query and their commas) of
	// a common row; it is copied in blocks of 32 bytes.
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
// (",true,", ",false,", ",,,\n"), each stored at once.
const (
	okTrue   = uint64(',') | uint64('t')<<8 | uint64('r')<<16 | uint64('u')<<24 | uint64('e')<<32 | uint64(',')<<40
	okFalse  = uint64(',') | uint64('f')<<8 | uint64('a')<<16 | uint64('l')<<24 | uint64('s')<<32 | uint64('e')<<40 | uint64(',')<<48
	lastCols = uint32(',') | uint32(',')<<8 | uint32(',')<<16 | uint32('\n')<<24
)

// WriteAt is Write of r, which ended at offset at of clock, its Time
// left zero (reqlog.RefWriter): the engine's way.
//
// A busy VU's common row — no Op, answer or error, numbers below
// maxNumber, in the second and with the query of the VU's last row —
// is written here, in place in the VU's buffer: the cached prefix
// (stamp and query, encoder.pre) copied in blocks, a one-digit number
// as one byte and a longer one as 8 (digits8), the constant columns as
// one store each; no call, no allocation, no bounds check. It is the
// same bytes as appendRest's (TestWriteAtMatchesAppendRecord); any
// other row goes through write, which also makes the second and query
// current.
func (w *Writer) WriteAt(r *reqlog.Record, clock metrics.Clock, at time.Duration) {
	e, n := &w.enc, len(w.buf)
	if w.custom != nil || w.direct || cap(w.buf)-n < rowRoom ||
		uint64(at-e.lo) >= uint64(e.span) || clock != e.clock ||
		unsafe.StringData(r.Query) != e.preQ || len(r.Query) != e.preN ||
		r.Op != nil || r.HasAnswer || r.Err != "" {
		w.write(r, clock, at, true)
		return
	}
	p := (*[rowRoom]byte)(w.buf[n : n+rowRoom])
	// Through a local: a copy between two arrays that may overlap is a
	// call to memmove.
	blk := *(*[32]byte)(e.pre[:32])
	*(*[32]byte)(p[:32]) = blk
	i := e.npre
	if i > 32 {
		blk = *(*[32]byte)(e.pre[32:])
		*(*[32]byte)(p[32:64]) = blk
	}
	le := binary.LittleEndian
	if r.Latency >= 0 { // else unknown: empty
		if lat := uint64(r.Latency) / uint64(time.Microsecond); lat < 10 {
			p[i&(rowMax-1)] = byte('0' + lat)
			i++
		} else if lat < maxNumber {
			v, k := digits8(lat)
			j := i & (rowMax - 1)
			le.PutUint64(p[j:j+8], v)
			i += k
		} else {
			w.write(r, clock, at, true)
			return
		}
	}
	p[i&(rowMax-1)] = ','
	i++
	// A negative responseTime is above maxNumber as a uint64.
	if rt := uint64(r.ResponseTime) / uint64(time.Microsecond); rt < 10 {
		p[i&(rowMax-1)] = byte('0' + rt)
		i++
	} else if rt < maxNumber {
		v, k := digits8(rt)
		j := i & (rowMax - 1)
		le.PutUint64(p[j:j+8], v)
		i += k
	} else {
		w.write(r, clock, at, true)
		return
	}
	j := i & (rowMax - 1)
	if r.OK {
		le.PutUint64(p[j:j+8], okTrue)
		i += len(",true,")
	} else {
		le.PutUint64(p[j:j+8], okFalse)
		i += len(",false,")
	}
	if rows := uint64(r.Rows); rows < 10 {
		p[i&(rowMax-1)] = byte('0' + rows)
		i++
	} else if rows < maxNumber {
		v, k := digits8(rows)
		j := i & (rowMax - 1)
		le.PutUint64(p[j:j+8], v)
		i += k
	} else {
		w.write(r, clock, at, true)
		return
	}
	j = i & (rowMax - 1)
	le.PutUint32(p[j:j+4], lastCols)
	n += i + len(",,,\n")
	w.buf = w.buf[:n]
	w.n++
	if int64(n) >= w.log.handoff.Load() {
		w.handoff()
	}
}
