// Package httpdrv is the http:// and https:// driver. For plain HTTP each
// connection is a lean HTTP/1.1 keep-alive client on its own TCP
// connection (read and written through package rawnet): one write per
// request, a buffered reader for the response, no allocation per request
// in steady state. HTTPS goes through net/http.
package httpdrv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/rawnet"
	"github.com/stampede-bench/stampede/internal/redact"
)

// Ext carries the HTTP-specific part of an operation. Query is the
// request target (path and query string), Body the request body.
type Ext struct {
	// Method defaults to GET.
	Method string
	// Headers are "Name: value" lines without CRLF.
	Headers []string
	// Capture, when set, receives the response's headers and body (the
	// body up to Capture.MaxBody) instead of their being discarded.
	Capture *Capture
	// Timeout, when > 0, bounds this request instead of the driver's
	// timeout.
	Timeout time.Duration

	// wire is the request as a Driver's plain connections send it,
	// checked and rendered once by that Driver's Prepare.
	wire   []byte
	wireOf *Driver
}

// Prepare checks op and renders it once, for a scenario that sends the
// same request on every iteration: the driver's plain-HTTP connections
// then send those bytes as they are, without checking and rendering the
// request each time. op, its Body and its Ext must not change afterwards
// (they may be shared by any number of VUs). It returns the error that
// sending op would give.
func (d *Driver) Prepare(op *driver.Op) error {
	ext, _ := op.Ext.(*Ext)
	if ext == nil {
		if op.Ext != nil {
			return nil // not an HTTP extension: rendered per request
		}
		ext = &Ext{}
		op.Ext = ext
	}
	if err := checkOp(ext, op.Query); err != nil {
		return err
	}
	ext.wire, ext.wireOf = appendRequest(nil, d.host, d.ua, op), d
	return nil
}

// render returns op's request as d's plain connections send it: the
// prepared bytes (Prepare), or op checked and rendered into *buf (reused).
func (d *Driver) render(buf *[]byte, ext *Ext, op *driver.Op) ([]byte, error) {
	if ext != nil && ext.wireOf == d {
		return ext.wire, nil
	}
	if err := checkOp(ext, op.Query); err != nil {
		return nil, err // never sent: no smuggled header, no split request
	}
	*buf = appendRequest((*buf)[:0], d.host, d.ua, op)
	return *buf, nil
}

// Status is an error for a response whose status was not expected.
type Status struct{ Code int }

func (s *Status) Error() string { return fmt.Sprintf("HTTP %d %s", s.Code, http.StatusText(s.Code)) }

// Register adds the http and https schemes.
func Register(r *driver.Registry) {
	r.Register(Open, "http", "https")
}

// Driver connects to one HTTP origin.
type Driver struct {
	u        *url.URL
	addr     string
	host     string
	timeout  time.Duration
	tls      bool
	insecure bool
	ua       string // User-Agent header value
}

var _ driver.Driver = (*Driver)(nil)

// Open returns a driver for target (scheme, host and port are used; the
// path of each operation comes from the scenario).
func Open(_ context.Context, target *url.URL, opts driver.Options) (driver.Driver, error) {
	if target.Host == "" {
		return nil, fmt.Errorf("http target %s has no host", redact.ParsedURL(target))
	}
	d := &Driver{u: target, host: target.Host, timeout: opts.Timeout, tls: target.Scheme == "https",
		insecure: opts.InsecureSkipTLSVerify, ua: opts.UserAgent}
	if d.ua == "" {
		d.ua = DefaultUserAgent
	}
	if strings.ContainsAny(d.ua, "\r\n") {
		return nil, fmt.Errorf("user agent %q has a line break", d.ua)
	}
	port := target.Port()
	if port == "" {
		port = "80"
		if d.tls {
			port = "443"
		}
	}
	d.addr = net.JoinHostPort(target.Hostname(), port)
	return d, nil
}

// Conn opens one connection. It dials at once so that an unreachable
// target fails before the run; the time that dial took is the first
// request's http_req_connecting and http_req_blocked, as if it had been
// dialled by that request (as k6 dials a VU's first connection).
func (d *Driver) Conn(ctx context.Context) (driver.Conn, error) {
	if d.tls {
		return newStdConn(d), nil
	}
	c := &conn{d: d}
	t0 := time.Now()
	if err := c.dial(ctx); err != nil {
		return nil, err
	}
	c.firstDial = max(time.Since(t0), time.Microsecond) // never 0: it was dialled
	return c, nil
}

// LazyConn returns a connection that dials at its first request, which
// reports the dial as its http_req_connecting and http_req_blocked (k6's
// way): for VUs of a scenario that checked the target once already. (A
// VU in an event loop has a connection of the loop instead:
// Loop.NewConn.)
func (d *Driver) LazyConn() driver.Conn {
	if d.tls {
		return newStdConn(d)
	}
	return &conn{d: d}
}

// Close releases nothing: connections are closed by their VUs.
func (d *Driver) Close() error { return nil }

// conn is a plain-HTTP keep-alive connection.
type conn struct {
	d  *Driver
	nc net.Conn
	// ncMu guards the writes of nc (dial, close) against the read of the
	// function that interrupts a blocked read when the context ends, which
	// runs on its own goroutine; the VU's own reads need no lock.
	ncMu   sync.Mutex
	cr     countingReader
	r      *reader
	wbuf   []byte
	ctx    context.Context
	stopAF func() bool
	tm     Timings // of the last request
	// deadline is the connection's deadline as last set (zero: none).
	deadline time.Time
	// firstDial is the dial of the connection Conn opened, not yet
	// reported: the next request's connecting and blocked time.
	firstDial time.Duration
}

func (c *conn) dial(ctx context.Context) error {
	var dialer net.Dialer
	nc, err := dialer.DialContext(ctx, "tcp", c.d.addr)
	if err != nil {
		return fmt.Errorf("connect %s: %w", c.d.addr, rootCause(err))
	}
	nc = rawnet.Wrap(nc)
	c.ncMu.Lock()
	c.nc = nc
	c.ncMu.Unlock()
	c.deadline = time.Time{}
	c.cr.r = nc
	c.r = newReader(&c.cr)
	return nil
}

// Do sends one request and reads the whole response. A broken connection
// is reopened on the next request.
func (c *conn) Do(ctx context.Context, op *driver.Op) driver.Result {
	if ctx != c.ctx {
		// Interrupt blocking reads when this context ends (Ctrl+C).
		if c.stopAF != nil {
			c.stopAF()
		}
		c.ctx = ctx
		c.deadline = time.Unix(1, 0) // set it again on the next request
		c.stopAF = context.AfterFunc(ctx, func() {
			c.ncMu.Lock()
			defer c.ncMu.Unlock()
			if nc := c.nc; nc != nil {
				nc.SetDeadline(time.Unix(1, 0))
			}
		})
	}
	t0 := time.Now()
	c.tm = Timings{Proto: "HTTP/1.1", Start: t0}
	if err := ctx.Err(); err != nil {
		return driver.Result{Err: err}
	}
	ext, _ := op.Ext.(*Ext)
	wire, err := c.d.render(&c.wbuf, ext, op)
	if err != nil {
		return driver.Result{Err: err}
	}
	if c.firstDial > 0 {
		c.tm.Connecting, c.tm.Blocked = c.firstDial, c.firstDial
		c.firstDial = 0
	}
	if c.nc == nil {
		if err := c.dial(ctx); err != nil {
			return driver.Result{Err: err}
		}
		now := time.Now()
		c.tm.Connecting = now.Sub(t0)
		c.tm.Blocked = c.tm.Connecting
		t0 = now
	}
	c.setDeadline(t0, requestTimeout(c.d.timeout, op))
	n, err := c.nc.Write(wire)
	c.tm.Sent = int64(n)
	if err != nil {
		return c.fail(ctx, err)
	}
	t1 := time.Now()
	c.tm.Sending = t1.Sub(t0)
	c.cr.n = 0
	// Let the other VUs send first: by the time this one reads, its
	// response has usually arrived, saving a read that would fail with
	// EAGAIN and a trip through the poller.
	runtime.Gosched()
	status, keep, err := c.r.response(&c.tm, t1, captureOf(op))
	c.tm.Received = c.cr.n
	if err != nil {
		return c.fail(ctx, err)
	}
	c.r.grow(c.cr.n)
	if !keep {
		c.closeNet()
	}
	if status >= 400 {
		return driver.Result{Status: status, Err: &Status{Code: status}}
	}
	return driver.Result{Rows: 1, Status: status}
}

// DeadlineSlack bounds how late a request timeout may fire: a request
// started at t0 with timeout d fails between t0+d and t0+d+slack, slack
// being d/20 up to DeadlineSlack. Moving the connection's deadline only
// when it leaves that window spares a timer update per request.
const DeadlineSlack = 100 * time.Millisecond

// setDeadline bounds the request that starts at t0 by timeout (none when
// 0), moving the connection's deadline only when needed.
func (c *conn) setDeadline(t0 time.Time, timeout time.Duration) {
	if timeout <= 0 {
		if !c.deadline.IsZero() {
			c.nc.SetDeadline(time.Time{})
			c.deadline = time.Time{}
		}
		return
	}
	want := t0.Add(timeout)
	slack := min(timeout/20, DeadlineSlack)
	if !c.deadline.IsZero() && !c.deadline.Before(want) && c.deadline.Sub(want) <= slack {
		return
	}
	c.deadline = want.Add(slack)
	c.nc.SetDeadline(c.deadline)
}

func (c *conn) fail(ctx context.Context, err error) driver.Result {
	c.closeNet()
	if ctx.Err() != nil {
		return driver.Result{Err: ctx.Err()}
	}
	return failed(err)
}

// failed is the result of a request that failed with err on its
// connection: a timeout, the server's close, or the errno of the call.
func failed(err error) driver.Result {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return driver.Result{Err: errors.New("request timeout")}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return driver.Result{Err: errors.New("connection closed by server")}
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return driver.Result{Err: fmt.Errorf("%s: %w", oe.Op, rootCause(oe))}
	}
	return driver.Result{Err: err}
}

// rootCause strips the net and syscall wrappers from a network error,
// leaving the errno ("connection refused"), so that messages read
// "connect HOST: connection refused" and group well.
func rootCause(err error) error {
	var se *os.SyscallError
	if errors.As(err, &se) {
		return se.Err
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return oe.Err
	}
	return err
}

func (c *conn) closeNet() {
	c.ncMu.Lock()
	defer c.ncMu.Unlock()
	if c.nc != nil {
		c.nc.Close()
		c.nc = nil
	}
}

// LastTimings implements Timer.
func (c *conn) LastTimings() *Timings { return &c.tm }

func (c *conn) Close() error {
	if c.stopAF != nil {
		c.stopAF()
	}
	c.closeNet()
	return nil
}

// methodHeaders returns the method (default GET) and headers of op.
func methodHeaders(op *driver.Op) (method string, headers []string) {
	method = "GET"
	if e, ok := op.Ext.(*Ext); ok && e != nil {
		if e.Method != "" {
			method = e.Method
		}
		headers = e.Headers
	}
	return method, headers
}

// appendRequest renders an HTTP/1.1 request.
func appendRequest(b []byte, host, ua string, op *driver.Op) []byte {
	method, headers := methodHeaders(op)
	path := op.Query
	if path == "" {
		path = "/"
	}
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, path...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, host...)
	b = append(b, "\r\nUser-Agent: "...)
	b = append(b, ua...)
	b = append(b, "\r\n"...)
	for _, h := range headers {
		b = append(b, h...)
		b = append(b, "\r\n"...)
	}
	if len(op.Body) > 0 || method == "POST" || method == "PUT" || method == "PATCH" {
		b = append(b, "Content-Length: "...)
		b = appendInt(b, len(op.Body))
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	return append(b, op.Body...)
}

func appendInt(b []byte, n int) []byte {
	var tmp [20]byte
	i := len(tmp)
	if n == 0 {
		return append(b, '0')
	}
	for n > 0 {
		i--
		tmp[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, tmp[i:]...)
}
