package csvlog

import (
	"errors"
	"io"
	"syscall"
	"time"
	"unsafe"
)

// directSink is a destination that can bypass the page cache (a regular
// file opened with O_DIRECT on Linux, see File). A Log over one stages
// its chunks into an aligned buffer of directSize bytes and writes it
// whole, in multiples of directAlign at aligned offsets: the kernel then
// copies nothing into the page cache, which at millions of rows per
// second cost more CPU than encoding them (issue 32: the no-op path's
// page-cache writes were ≈ 20 ns per row, the row's encoding ≈ 9).
// Whatever does not fill a block (the tail at every tick and at Close)
// is written with O_DIRECT off; the next full buffer first writes up to
// an aligned offset, then turns it back on.
type directSink interface {
	io.Writer
	// SetDirect turns O_DIRECT on or off for the writes that follow.
	SetDirect(on bool) error
}

const (
	// directAlign is the alignment of O_DIRECT writes: their memory,
	// offset and length (the page size, a multiple of any block size).
	directAlign = 4096
)

// directSize is the bytes staged before a direct write (a variable for
// tests).
var directSize = 4 << 20

// stager is the writer goroutine's state over a directSink.
type stager struct {
	l      *Log
	d      directSink
	direct bool   // O_DIRECT is on
	can    bool   // O_DIRECT may be turned on again
	buf    []byte // staged bytes from head, aligned, capacity directSize
	head   int    // buf[:head] is written: head is off's place in its block
	off    int64  // file offset of buf[head]
	marks  []mark // ends of the staged chunks not written yet
	failed bool
}

// mark is where a staged chunk of rows records ends in the file.
type mark struct{ end, rows int64 }

// newStager stages into mem, whose capacity is the stage's size and whose
// first byte is aligned (stageMem).
func newStager(l *Log, d directSink, mem []byte) *stager {
	return &stager{l: l, d: d, direct: true, can: true, buf: mem[:0]}
}

// heapStage is n bytes of the Go heap, aligned to directAlign, with
// length 0.
func heapStage(n int) []byte {
	raw := make([]byte, n+directAlign)
	skip := int(-uintptr(unsafe.Pointer(unsafe.SliceData(raw))) & (directAlign - 1))
	return raw[skip : skip : skip+n]
}

// runDirect is run over a directSink: every chunk is staged, written
// when directSize bytes are staged, and all that is staged is written on
// every tick (flushEvery: slow VUs' rows reach the file soon) and at the
// end.
func (l *Log) runDirect(d directSink) {
	defer close(l.done)
	mem, free := stageMem(directSize)
	defer free()
	s := newStager(l, d, mem)
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	for {
		select {
		case c, ok := <-l.queue:
			if !ok {
				s.flush(true)
				return
			}
			s.put(c)
		case <-tick.C:
			if l.smu.TryLock() { // as in run: a VU may hold smu while it waits for the queue
				c := chunk{b: l.shared, n: l.sharedN, shared: true}
				l.shared, l.sharedN = nil, 0
				l.smu.Unlock()
				if len(c.b) > 0 {
					s.put(c)
				}
			}
			s.flush(true)
		}
	}
}

// put stages c (written when the buffer is full) and recycles its buffer.
func (s *stager) put(c chunk) {
	for b := c.b; len(b) > 0 && !s.failed; {
		n := copy(s.buf[len(s.buf):cap(s.buf)], b)
		s.buf, b = s.buf[:len(s.buf)+n], b[n:]
		if len(s.buf) == cap(s.buf) {
			s.flush(false)
		}
	}
	if s.failed {
		s.l.lost.Add(c.n)
	} else {
		s.marks = append(s.marks, mark{end: s.off + int64(len(s.buf)-s.head), rows: c.n})
	}
	s.l.recycle(c)
}

// flush writes what is staged: with all, everything; otherwise the
// aligned part (direct), the rest, less than a block, staying for the
// next write. After a tick wrote a tail without O_DIRECT the file's
// offset is not aligned: the bytes up to the next aligned offset are
// written without it, and buf keeps every byte at its file offset's
// place within a block (head), so that the rest is aligned in memory
// as well and nothing is moved but the last, unaligned block.
func (s *stager) flush(all bool) {
	if s.failed {
		return
	}
	lo, hi := s.head, len(s.buf)
	if s.can {
		if a := (lo + directAlign - 1) &^ (directAlign - 1); a > lo && a < hi {
			if !s.plain(s.buf[lo:a]) {
				return
			}
			lo = a
		}
		if a := hi &^ (directAlign - 1); lo%directAlign == 0 && a > lo && s.setDirect(true) {
			if !s.write(s.buf[lo:a]) {
				return
			}
			lo = a
		}
		if s.failed {
			return
		}
	}
	if (all || !s.can) && lo < hi {
		if !s.plain(s.buf[lo:hi]) {
			return
		}
		lo = hi
	}
	base := lo &^ (directAlign - 1)
	s.head = lo - base
	s.buf = s.buf[:s.head+copy(s.buf[s.head:], s.buf[lo:hi])]
}

// setDirect turns O_DIRECT on or off for the writes that follow and
// reports whether it is so: a file that refuses it on is written without
// it from then on (can), one that refuses it off fails.
func (s *stager) setDirect(on bool) bool {
	if s.direct == on {
		return true
	}
	if err := s.d.SetDirect(on); err != nil {
		if on {
			s.can = false
		} else {
			s.fail(err)
		}
		return false
	}
	s.direct = on
	return true
}

// plain writes b without O_DIRECT.
func (s *stager) plain(b []byte) bool { return s.setDirect(false) && s.write(b) }

// write writes b, which starts at s.off, and accounts the chunks it
// completes (Log.Rows, Log.Written). A destination that refuses O_DIRECT
// writes (EINVAL) gets them without it.
//
// A write cut short (a full disk) still completes the chunks it holds:
// the file keeps every row that fitted (File.Stop cuts it back to
// Written).
func (s *stager) write(b []byte) bool {
	n, err := s.d.Write(b)
	if err != nil && n == 0 && s.direct && errors.Is(err, syscall.EINVAL) {
		s.direct, s.can = false, false
		if err = s.d.SetDirect(false); err == nil {
			n, err = s.d.Write(b)
		}
	}
	s.advance(n)
	if err != nil {
		s.fail(err)
		return false
	}
	return true
}

// advance accounts n bytes written at s.off.
func (s *stager) advance(n int) {
	s.off += int64(n)
	i, rows := 0, int64(0)
	for ; i < len(s.marks) && s.marks[i].end <= s.off; i++ {
		rows += s.marks[i].rows
	}
	if i > 0 {
		s.l.written.Store(s.marks[i-1].end)
		s.l.rows.Add(rows)
		s.marks = s.marks[:copy(s.marks, s.marks[i:])]
	}
}

// fail records err; the staged rows are lost, as are all that follow.
func (s *stager) fail(err error) {
	s.failed = true
	s.l.errMu.Lock()
	s.l.err = err
	s.l.errMu.Unlock()
	for _, m := range s.marks {
		s.l.lost.Add(m.rows)
	}
	s.marks, s.buf, s.head = nil, s.buf[:0], 0
}
