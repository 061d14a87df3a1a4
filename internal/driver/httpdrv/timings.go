package httpdrv

import (
	"io"
	"time"
)

// DefaultUserAgent is the User-Agent header when none is configured.
const DefaultUserAgent = "stampede"

// Timings are the phases of one request, as k6 defines its http_req_*
// metrics, measured by the connection itself.
type Timings struct {
	// Blocked is the time before the request could be sent: on the plain
	// HTTP client, the dial of a new connection (a VU owns its connection,
	// so a reused one never waits: 0).
	Blocked time.Duration
	// Connecting is the TCP connect; TLSHandshaking the TLS handshake (0
	// on plain HTTP and on reused connections).
	Connecting, TLSHandshaking time.Duration
	// Sending is writing the request, Waiting from then to the first
	// response byte, Receiving from the first byte to the end of the body.
	// The plain HTTP client leaves Receiving 0 and sets FirstByte: the
	// caller, which reads the clock at the end anyway, takes the
	// difference (one clock read less per request).
	Sending, Waiting, Receiving time.Duration
	// Start is when Do began (the request's start: callers may use it
	// instead of reading the clock themselves); FirstByte when the first
	// response byte arrived (zero when Receiving is set).
	Start, FirstByte time.Time
	// Sent and Received are bytes written to and read from the socket
	// (headers included; under TLS, the TLS records).
	Sent, Received int64
	// Status is the response status (0: none).
	Status int
	// Proto is the HTTP version of the response, e.g. "HTTP/1.1".
	Proto string
}

// Timer is implemented by the driver's connections: the timings of the
// last Do, valid until the next one.
type Timer interface {
	LastTimings() *Timings
}

var (
	_ Timer = (*conn)(nil)
	_ Timer = (*stdConn)(nil)
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
