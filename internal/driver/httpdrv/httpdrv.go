// Package httpdrv is the http:// and https:// driver. For plain HTTP each
// connection is a lean HTTP/1.1 keep-alive client on its own TCP
// connection: one write per request, a buffered reader for the response,
// no allocation per request in steady state. HTTPS goes through net/http.
package httpdrv

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
)

// Ext carries the HTTP-specific part of an operation. Query is the
// request target (path and query string), Body the request body.
type Ext struct {
	// Method defaults to GET.
	Method string
	// Headers are "Name: value" lines without CRLF.
	Headers []string
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
	u       *url.URL
	addr    string
	host    string
	timeout time.Duration
	tls     bool
}

var _ driver.Driver = (*Driver)(nil)

// Open returns a driver for target (scheme, host and port are used; the
// path of each operation comes from the scenario).
func Open(_ context.Context, target *url.URL, opts driver.Options) (driver.Driver, error) {
	if target.Host == "" {
		return nil, fmt.Errorf("http target %s has no host", driver.RedactURL(target))
	}
	d := &Driver{u: target, host: target.Host, timeout: opts.Timeout, tls: target.Scheme == "https"}
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
// target fails before the run.
func (d *Driver) Conn(ctx context.Context) (driver.Conn, error) {
	if d.tls {
		tr := &http.Transport{MaxConnsPerHost: 1, MaxIdleConnsPerHost: 1, TLSClientConfig: &tls.Config{}}
		return &stdConn{d: d, client: &http.Client{Transport: tr, Timeout: d.timeout}}, nil
	}
	c := &conn{d: d}
	if err := c.dial(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// Close releases nothing: connections are closed by their VUs.
func (d *Driver) Close() error { return nil }

// conn is a plain-HTTP keep-alive connection.
type conn struct {
	d      *Driver
	nc     net.Conn
	r      *reader
	wbuf   []byte
	ctx    context.Context
	stopAF func() bool
}

func (c *conn) dial(ctx context.Context) error {
	var dialer net.Dialer
	nc, err := dialer.DialContext(ctx, "tcp", c.d.addr)
	if err != nil {
		return fmt.Errorf("connect %s: %w", c.d.addr, rootCause(err))
	}
	c.nc = nc
	c.r = newReader(nc)
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
		c.stopAF = context.AfterFunc(ctx, func() {
			if nc := c.nc; nc != nil {
				nc.SetDeadline(time.Unix(1, 0))
			}
		})
	}
	if err := ctx.Err(); err != nil {
		return driver.Result{Err: err}
	}
	if c.nc == nil {
		if err := c.dial(ctx); err != nil {
			return driver.Result{Err: err}
		}
	}
	if c.d.timeout > 0 {
		c.nc.SetDeadline(time.Now().Add(c.d.timeout))
	}
	c.wbuf = appendRequest(c.wbuf[:0], c.d.host, op)
	if _, err := c.nc.Write(c.wbuf); err != nil {
		return c.fail(ctx, err)
	}
	// Let the other VUs send first: by the time this one reads, its
	// response has usually arrived, saving a read that would fail with
	// EAGAIN and a trip through the poller.
	runtime.Gosched()
	status, keep, err := c.r.response()
	if err != nil {
		return c.fail(ctx, err)
	}
	if !keep {
		c.closeNet()
	}
	if status >= 400 {
		return driver.Result{Status: status, Err: &Status{Code: status}}
	}
	return driver.Result{Rows: 1, Status: status}
}

func (c *conn) fail(ctx context.Context, err error) driver.Result {
	c.closeNet()
	if ctx.Err() != nil {
		return driver.Result{Err: ctx.Err()}
	}
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
	if c.nc != nil {
		c.nc.Close()
		c.nc = nil
	}
}

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
func appendRequest(b []byte, host string, op *driver.Op) []byte {
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
	b = append(b, "\r\nUser-Agent: stampede\r\n"...)
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

// stdConn serves https through net/http.
type stdConn struct {
	d      *Driver
	client *http.Client
}

func (c *stdConn) Do(ctx context.Context, op *driver.Op) driver.Result {
	method, headers := methodHeaders(op)
	u := *c.d.u
	ref, err := url.Parse(op.Query)
	if err != nil {
		return driver.Result{Err: fmt.Errorf("bad request path %q", op.Query)}
	}
	u.Path, u.RawQuery = ref.Path, ref.RawQuery
	req, err := http.NewRequestWithContext(ctx, method, u.String(), strings.NewReader(string(op.Body)))
	if err != nil {
		return driver.Result{Err: err}
	}
	for _, h := range headers {
		if k, v, ok := strings.Cut(h, ":"); ok {
			req.Header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	resp, err := c.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return driver.Result{Err: err}
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		return driver.Result{Status: resp.StatusCode, Err: &Status{Code: resp.StatusCode}}
	}
	return driver.Result{Rows: 1, Status: resp.StatusCode}
}

func (c *stdConn) Close() error {
	c.client.CloseIdleConnections()
	return nil
}
