package httpdrv

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
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

// reader parses HTTP/1.1 responses from a buffered connection and discards
// their bodies.
type reader struct {
	src  io.Reader
	br   *bufio.Reader
	long []byte // a line longer than br's buffer, assembled
}

func newReader(r io.Reader) *reader {
	return &reader{src: r, br: bufio.NewReaderSize(r, SmallReadBuffer)}
}

// grow moves to the large buffer after a response of n bytes that did not
// fit the small one, once nothing is left buffered.
func (r *reader) grow(n int64) {
	if n > SmallReadBuffer && r.br.Size() < LargeReadBuffer && r.br.Buffered() == 0 {
		r.br = bufio.NewReaderSize(r.src, LargeReadBuffer)
	}
}

// line reads up to and including the next '\n'. A line longer than the
// buffer is assembled (up to MaxLine, else bufio.ErrBufferFull); the
// result is valid until the next read.
func (r *reader) line() ([]byte, error) {
	l, err := r.br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return l, err
	}
	r.long = append(r.long[:0], l...)
	for {
		l, err = r.br.ReadSlice('\n')
		r.long = append(r.long, l...)
		if len(r.long) > MaxLine {
			return nil, bufio.ErrBufferFull
		}
		if err != bufio.ErrBufferFull {
			return r.long, err
		}
	}
}

var errMalformed = errors.New("malformed HTTP response")

// response reads one response: its status, whether the connection stays
// open, and the body (discarded). It sets tm's Waiting (from sent, when
// the request was written, to the status line) and Receiving (from then to
// the end of the body, left to the caller: FirstByte is set instead, to
// save a clock read).
func (r *reader) response(tm *Timings, sent time.Time, capture *Capture) (status int, keepAlive bool, err error) {
	line, err := r.line()
	tm.FirstByte = time.Now()
	tm.Waiting = tm.FirstByte.Sub(sent)
	if err != nil {
		return 0, false, err
	}
	if capture != nil {
		capture.reset()
		status, keepAlive, err = r.restCapture(line, capture)
	} else {
		status, keepAlive, err = r.rest(line)
	}
	tm.Status = status
	return status, keepAlive, err
}

// rest parses the status line and reads the headers and the body.
func (r *reader) rest(line []byte) (status int, keepAlive bool, err error) {
	// "HTTP/1.1 200 OK\r\n"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return 0, false, errMalformed
	}
	code, ok := parseDecimal(line[9:12])
	if status = int(code); !ok || status < 100 {
		return 0, false, errMalformed
	}
	keepAlive = line[7] == '1' // HTTP/1.1 defaults to keep-alive
	contentLength := int64(-1)
	chunked := false
	for {
		h, err := r.line()
		if err != nil {
			return 0, false, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		colon := bytes.IndexByte(h, ':')
		if colon < 0 {
			return 0, false, errMalformed
		}
		name, val := h[:colon], bytes.TrimSpace(h[colon+1:])
		switch {
		case asciiEqualFold(name, "content-length"):
			n, ok := parseDecimal(val)
			if !ok {
				return 0, false, errMalformed
			}
			contentLength = n
		case asciiEqualFold(name, "transfer-encoding"):
			chunked = bytes.Contains(bytes.ToLower(val), []byte("chunked"))
		case asciiEqualFold(name, "connection"):
			if asciiEqualFold(val, "close") {
				keepAlive = false
			} else if asciiEqualFold(val, "keep-alive") {
				keepAlive = true
			}
		}
	}
	switch {
	case status == 204 || status == 304 || status < 200:
		return status, keepAlive, nil
	case chunked:
		return status, keepAlive, r.discardChunked()
	case contentLength >= 0:
		_, err := r.br.Discard(int(contentLength))
		return status, keepAlive, err
	default:
		// Body until close.
		_, err := io.Copy(io.Discard, r.br)
		return status, false, err
	}
}

func (r *reader) discardChunked() error {
	return r.chunks(func(n int64) error {
		_, err := r.br.Discard(int(n))
		return err
	})
}

// chunks reads a chunked body, handing each chunk's size to body, which
// consumes that many bytes; trailers are skipped.
func (r *reader) chunks(body func(n int64) error) error {
	for {
		line, err := r.line()
		if err != nil {
			return err
		}
		line = bytes.TrimRight(line, "\r\n")
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%w: bad chunk size", errMalformed)
		}
		if n == 0 {
			// Trailers until an empty line.
			for {
				t, err := r.line()
				if err != nil {
					return err
				}
				if len(bytes.TrimRight(t, "\r\n")) == 0 {
					return nil
				}
			}
		}
		if err := body(n); err != nil {
			return err
		}
		if _, err := r.br.Discard(2); err != nil { // the chunk's CRLF
			return err
		}
	}
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
