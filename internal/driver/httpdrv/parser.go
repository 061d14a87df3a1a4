package httpdrv

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// parser reads one HTTP/1.1 response from bytes handed to it in pieces of
// any size, as they arrive (feed), without reading itself: the status, the
// headers (kept in a Capture when there is one), and a Content-Length,
// chunked or until-close body (kept or discarded). A line split between
// pieces is carried over, up to MaxLine bytes. reset starts the next
// response.
type parser struct {
	contentLength int64
	// left is what is left of the body (fixed length) or of the chunk.
	left int64
	// line is the start of a line that a piece ended in the middle of.
	line      []byte
	capture   *Capture
	status    int
	state     parseState
	keepAlive bool
	chunked   bool
}

type parseState uint8

const (
	stStatus parseState = iota
	stHeaders
	stBody      // left bytes of a Content-Length body
	stChunkSize // a chunk-size line
	stChunkData // left bytes of a chunk
	stChunkEnd  // the CRLF after a chunk's data: left bytes of it
	stTrailers  // trailer lines up to an empty one
	stUntilClose
	stDone
)

// reset prepares p for a response; capture (nil: none) receives its
// headers and body.
func (p *parser) reset(capture *Capture) {
	*p = parser{line: p.line[:0], capture: capture, contentLength: -1}
	if capture != nil {
		capture.reset()
	}
}

// feed consumes the start of b: all of it unless the response ends
// within it (done), the rest being the next response's. An error means
// the response cannot be read (the connection is not reusable).
func (p *parser) feed(b []byte) (n int, done bool, err error) {
	for n < len(b) && p.state != stDone {
		var m int
		switch p.state {
		case stStatus, stHeaders, stChunkSize, stTrailers:
			line, used, ok, lerr := p.nextLine(b[n:])
			n += used
			if lerr != nil {
				return n, false, lerr
			}
			if !ok {
				return n, false, nil
			}
			if err := p.onLine(line); err != nil {
				return n, false, err
			}
			continue
		case stBody, stChunkData:
			m = int(min(p.left, int64(len(b)-n)))
			if err := p.keep(b[n : n+m]); err != nil {
				return n, false, err
			}
			p.left -= int64(m)
			if p.left == 0 {
				if p.state == stBody {
					p.state = stDone
				} else {
					p.state, p.left = stChunkEnd, 2
				}
			}
		case stChunkEnd:
			m = int(min(p.left, int64(len(b)-n))) // the chunk's CRLF, not checked
			if p.left -= int64(m); p.left == 0 {
				p.state = stChunkSize
			}
		case stUntilClose:
			m = len(b) - n
			if err := p.keep(b[n:]); err != nil {
				return n, false, err
			}
		}
		n += m
	}
	return n, p.state == stDone, nil
}

// eof tells p that the connection closed: done when the body was to end
// with it; else io.EOF before the first byte, io.ErrUnexpectedEOF after.
func (p *parser) eof(started bool) (done bool, err error) {
	switch {
	case p.state == stUntilClose:
		p.state = stDone
		return true, nil
	case p.state == stDone:
		return true, nil
	case !started:
		return false, io.EOF
	}
	return false, io.ErrUnexpectedEOF
}

// nextLine returns the line (with its '\n') that b completes, and how much
// of b it used; without a '\n' in b it keeps b and says so (ok false).
func (p *parser) nextLine(b []byte) (line []byte, used int, ok bool, err error) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if len(p.line)+len(b) > MaxLine {
			return nil, len(b), false, bufio.ErrBufferFull
		}
		p.line = append(p.line, b...)
		return nil, len(b), false, nil
	}
	if len(p.line)+i+1 > MaxLine {
		return nil, i + 1, false, bufio.ErrBufferFull
	}
	if len(p.line) == 0 {
		return b[:i+1], i + 1, true, nil
	}
	p.line = append(p.line, b[:i+1]...)
	line = p.line
	p.line = p.line[:0] // line stays valid until the next append
	return line, i + 1, true, nil
}

// onLine handles one complete line of the state's kind.
func (p *parser) onLine(line []byte) error {
	switch p.state {
	case stStatus:
		return p.statusLine(line)
	case stHeaders:
		h := trimEOL(line)
		if len(h) == 0 {
			p.endOfHeaders()
			return nil
		}
		return p.header(h)
	case stChunkSize:
		return p.chunkSize(line)
	case stTrailers:
		if len(trimEOL(line)) == 0 {
			p.state = stDone
		}
	}
	return nil
}

// trimEOL returns line without its trailing CR and LF bytes.
func trimEOL(line []byte) []byte {
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return line
}

// statusLine reads "HTTP/1.x DDD reason".
func (p *parser) statusLine(line []byte) error {
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return errMalformed
	}
	code, ok := parseDecimal(line[9:12])
	if p.status = int(code); !ok || p.status < 100 {
		return errMalformed
	}
	p.keepAlive = line[7] == '1' // HTTP/1.1 defaults to keep-alive
	p.state = stHeaders
	return nil
}

// header reads one header line h (without its line break).
func (p *parser) header(h []byte) error {
	colon := bytes.IndexByte(h, ':')
	if colon < 0 {
		return errMalformed
	}
	if c := p.capture; c != nil && len(c.Headers) < 1000 {
		c.Headers = append(c.Headers, string(h))
	}
	// Only three names matter; their lengths tell them apart before any
	// byte is compared (most headers of a response are none of them).
	name := h[:colon]
	switch len(name) {
	case len("content-length"):
		if !asciiEqualFold(name, "content-length") {
			return nil
		}
		n, ok := parseDecimal(bytes.TrimSpace(h[colon+1:]))
		if !ok {
			return errMalformed
		}
		p.contentLength = n
	case len("transfer-encoding"):
		if asciiEqualFold(name, "transfer-encoding") {
			p.chunked = bytes.Contains(bytes.ToLower(h[colon+1:]), []byte("chunked"))
		}
	case len("connection"):
		if !asciiEqualFold(name, "connection") {
			return nil
		}
		switch val := bytes.TrimSpace(h[colon+1:]); {
		case asciiEqualFold(val, "close"):
			p.keepAlive = false
		case asciiEqualFold(val, "keep-alive"):
			p.keepAlive = true
		}
	}
	return nil
}

// endOfHeaders picks how the body ends.
func (p *parser) endOfHeaders() {
	switch {
	case p.capture != nil && p.capture.Head, p.status == 204, p.status == 304, p.status < 200:
		p.state = stDone
	case p.chunked:
		p.state = stChunkSize
	case p.contentLength == 0:
		p.state = stDone
	case p.contentLength > 0:
		p.state, p.left = stBody, p.contentLength
	default:
		p.state, p.keepAlive = stUntilClose, false
	}
}

// chunkSize reads a chunk-size line (extensions ignored).
func (p *parser) chunkSize(line []byte) error {
	line = trimEOL(line)
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		line = line[:i]
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("%w: bad chunk size", errMalformed)
	}
	if n == 0 {
		p.state = stTrailers
		return nil
	}
	p.state, p.left = stChunkData, n
	return nil
}

// keep adds body bytes b to the capture (when there is one that keeps
// bodies), up to its limit.
func (p *parser) keep(b []byte) error {
	c := p.capture
	if c == nil || c.DiscardBody {
		return nil
	}
	if int64(len(c.Body))+int64(len(b)) > c.limit() {
		return ErrBodyTooLarge
	}
	c.Body = append(c.Body, b...)
	return nil
}
