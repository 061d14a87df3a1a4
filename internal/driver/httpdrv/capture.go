package httpdrv

import (
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
