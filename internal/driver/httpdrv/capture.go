package httpdrv

import (
	"bytes"
	"errors"
	"io"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
)

// DefaultMaxBody bounds a captured response body when Capture.MaxBody is 0
// (bytes).
const DefaultMaxBody = 64 << 20

// ErrBodyTooLarge is the error of a response whose body is longer than
// Capture.MaxBody.
var ErrBodyTooLarge = errors.New("response body larger than the capture limit")

// Capture receives a response's headers and body (see Ext.Capture). It is
// reused across requests: Do resets it.
type Capture struct {
	// Headers are the response's header lines as received, "Name: value".
	Headers []string
	// Body is the response body, up to MaxBody bytes (DefaultMaxBody when
	// 0); DiscardBody reads and drops it instead (k6's
	// discardResponseBodies).
	Body        []byte
	MaxBody     int64
	DiscardBody bool
	// Head tells that the request was a HEAD: the response has no body
	// whatever its Content-Length says.
	Head bool
}

func (c *Capture) reset() {
	c.Headers = c.Headers[:0]
	c.Body = c.Body[:0]
}

func (c *Capture) limit() int64 {
	if c.MaxBody > 0 {
		return c.MaxBody
	}
	return DefaultMaxBody
}

func captureOf(op *driver.Op) *Capture {
	if e, ok := op.Ext.(*Ext); ok && e != nil {
		return e.Capture
	}
	return nil
}

// requestTimeout is op's own timeout, or the driver's.
func requestTimeout(def time.Duration, op *driver.Op) time.Duration {
	if e, ok := op.Ext.(*Ext); ok && e != nil && e.Timeout > 0 {
		return e.Timeout
	}
	return def
}

// restCapture is rest keeping the headers and the body in c.
func (r *reader) restCapture(line []byte, c *Capture) (status int, keepAlive bool, err error) {
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return 0, false, errMalformed
	}
	code, ok := parseDecimal(line[9:12])
	if status = int(code); !ok || status < 100 {
		return 0, false, errMalformed
	}
	keepAlive = line[7] == '1'
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
		if len(c.Headers) < 1000 {
			c.Headers = append(c.Headers, string(h))
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
	case c.Head || status == 204 || status == 304 || status < 200:
		return status, keepAlive, nil
	case chunked:
		return status, keepAlive, r.readChunked(c)
	case contentLength >= 0:
		return status, keepAlive, r.readN(c, contentLength)
	default:
		return status, false, r.readAll(c)
	}
}

// readN keeps the next n body bytes in c.
func (r *reader) readN(c *Capture, n int64) error {
	if c.DiscardBody {
		_, err := r.br.Discard(int(n))
		return err
	}
	if int64(len(c.Body))+n > c.limit() {
		r.br.Discard(int(n))
		return ErrBodyTooLarge
	}
	start := len(c.Body)
	c.Body = append(c.Body, make([]byte, n)...)
	_, err := io.ReadFull(r.br, c.Body[start:])
	return err
}

func (r *reader) readAll(c *Capture) error {
	if c.DiscardBody {
		_, err := io.Copy(io.Discard, r.br)
		return err
	}
	b, err := io.ReadAll(io.LimitReader(r.br, c.limit()+1))
	if int64(len(b)) > c.limit() {
		return ErrBodyTooLarge
	}
	c.Body = append(c.Body, b...)
	return err
}

func (r *reader) readChunked(c *Capture) error {
	return r.chunks(func(n int64) error { return r.readN(c, n) })
}

// captureStd fills c from a net/http response.
func captureStd(c *Capture, hdr map[string][]string, body io.Reader) error {
	c.reset()
	for k, vs := range hdr {
		for _, v := range vs {
			c.Headers = append(c.Headers, k+": "+v)
		}
	}
	if c.DiscardBody {
		_, err := io.Copy(io.Discard, body)
		return err
	}
	b, err := io.ReadAll(io.LimitReader(body, c.limit()+1))
	if int64(len(b)) > c.limit() {
		return ErrBodyTooLarge
	}
	c.Body = append(c.Body, b...)
	return err
}
