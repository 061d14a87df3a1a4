package httpdrv

import (
	"errors"
	"io"
	"time"
)

// Read buffer sizes (bytes). A connection starts with SmallReadBuffer,
// which holds a small response whole (one read syscall), and moves to
// LargeReadBuffer once a response was larger (fewer reads for big bodies).
// Lines (status, headers, chunk sizes) may be up to MaxLine long.
const (
	SmallReadBuffer = 2 << 10
	LargeReadBuffer = 16 << 10
	MaxLine         = 16 << 10
)

// reader reads HTTP/1.1 responses from a connection into its own buffer
// and hands what arrives to a parser: one read per response when the
// response fits the buffer (what a request's timing needs: the first read
// is the first byte), more for longer ones. Bytes after a response stay
// for the next one.
type reader struct {
	src        io.Reader
	buf        []byte // capacity SmallReadBuffer, or LargeReadBuffer after grow
	start, end int    // buf[start:end] is read and not yet parsed
	p          parser
}

func newReader(r io.Reader) *reader {
	return &reader{src: r, buf: make([]byte, SmallReadBuffer)}
}

// grow moves to the large buffer after a response of n bytes that did not
// fit the small one, once nothing is left buffered.
func (r *reader) grow(n int64) {
	if n > SmallReadBuffer && len(r.buf) < LargeReadBuffer && r.start == r.end {
		r.buf = make([]byte, LargeReadBuffer)
		r.start, r.end = 0, 0
	}
}

var errMalformed = errors.New("malformed HTTP response")

// response reads one response: its status, whether the connection stays
// open, and the body (kept in capture when there is one, else
// discarded). It sets tm's Waiting (from sent, when the request was
// written, to the first byte of the response) and Status; Receiving (from
// then to the end of the body) is left to the caller: FirstByte is set
// instead, to save a clock read.
func (r *reader) response(tm *Timings, sent time.Time, capture *Capture) (status int, keepAlive bool, err error) {
	r.p.reset(capture)
	started := false
	for {
		if r.start == r.end {
			n, rerr := r.src.Read(r.buf)
			r.start, r.end = 0, n
			if n == 0 {
				if rerr == nil {
					continue
				}
				if !started {
					tm.FirstByte = time.Now()
					tm.Waiting = tm.FirstByte.Sub(sent)
				}
				if rerr == io.EOF {
					var done bool
					if done, rerr = r.p.eof(started); done {
						break
					}
				}
				return 0, false, rerr
			}
		}
		if !started {
			started = true
			tm.FirstByte = time.Now()
			tm.Waiting = tm.FirstByte.Sub(sent)
		}
		n, done, perr := r.p.feed(r.buf[r.start:r.end])
		r.start += n
		if perr != nil {
			return 0, false, perr
		}
		if done {
			break
		}
	}
	tm.Status = r.p.status
	return r.p.status, r.p.keepAlive, nil
}

func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// parseDecimal parses a non-negative decimal without allocating.
func parseDecimal(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}
