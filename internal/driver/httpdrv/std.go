package httpdrv

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
)

// stdConn serves https through net/http, one connection per VU, timed with
// net/http/httptrace.
type stdConn struct {
	d      *Driver
	client *http.Client
	// sent and recv count the bytes of the connection; atomic because
	// net/http's connection goroutines read and write.
	sent, recv atomic.Int64
	tm         Timings
}

func newStdConn(d *Driver) *stdConn {
	c := &stdConn{d: d}
	dialer := &net.Dialer{}
	tr := &http.Transport{
		MaxConnsPerHost: 1, MaxIdleConnsPerHost: 1,
		TLSClientConfig: &tls.Config{InsecureSkipVerify: d.insecure}, //nolint:gosec // the user asked (--insecure-skip-tls-verify)
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			nc, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &atomicCountingConn{Conn: nc, c: c}, nil
		},
		ForceAttemptHTTP2: true,
	}
	c.client = &http.Client{Transport: tr, Timeout: d.timeout}
	return c
}

// atomicCountingConn counts into a stdConn.
type atomicCountingConn struct {
	net.Conn
	c *stdConn
}

func (a *atomicCountingConn) Read(p []byte) (int, error) {
	n, err := a.Conn.Read(p)
	a.c.recv.Add(int64(n))
	return n, err
}

func (a *atomicCountingConn) Write(p []byte) (int, error) {
	n, err := a.Conn.Write(p)
	a.c.sent.Add(int64(n))
	return n, err
}

func (c *stdConn) Do(ctx context.Context, op *driver.Op) driver.Result {
	method, headers := methodHeaders(op)
	ext, _ := op.Ext.(*Ext)
	if err := checkOp(ext, op.Query); err != nil {
		return driver.Result{Err: err}
	}
	u := *c.d.u
	ref, err := url.Parse(op.Query)
	if err != nil {
		return driver.Result{Err: fmt.Errorf("bad request path %q", op.Query)}
	}
	u.Path, u.RawQuery = ref.Path, ref.RawQuery
	c.tm = Timings{Start: time.Now()}
	var start, connStart, tlsStart, wrote, first time.Time
	trace := &httptrace.ClientTrace{
		GetConn: func(string) { start = time.Now() },
		GotConn: func(httptrace.GotConnInfo) {
			c.tm.Blocked = time.Since(start)
		},
		ConnectStart: func(string, string) { connStart = time.Now() },
		ConnectDone: func(string, string, error) {
			c.tm.Connecting = time.Since(connStart)
		},
		TLSHandshakeStart: func() { tlsStart = time.Now() },
		TLSHandshakeDone: func(tls.ConnectionState, error) {
			c.tm.TLSHandshaking = time.Since(tlsStart)
		},
		WroteRequest:         func(httptrace.WroteRequestInfo) { wrote = time.Now() },
		GotFirstResponseByte: func() { first = time.Now() },
	}
	ctx = httptrace.WithClientTrace(ctx, trace)
	if e, ok := op.Ext.(*Ext); ok && e != nil && e.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), strings.NewReader(string(op.Body)))
	if err != nil {
		return driver.Result{Err: err}
	}
	req.Header.Set("User-Agent", c.d.ua)
	for _, h := range headers {
		if k, v, ok := strings.Cut(h, ":"); ok {
			req.Header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	sent0, recv0 := c.sent.Load(), c.recv.Load()
	defer func() {
		c.tm.Sent, c.tm.Received = c.sent.Load()-sent0, c.recv.Load()-recv0
	}()
	gotConnAt := func() time.Time { return start.Add(c.tm.Blocked) }
	resp, err := c.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return driver.Result{Err: err}
	}
	var cerr error
	if capture := captureOf(op); capture != nil {
		cerr = captureStd(capture, resp.Header, resp.Body)
	} else {
		io.Copy(io.Discard, resp.Body)
	}
	resp.Body.Close()
	end := time.Now()
	if !wrote.IsZero() {
		c.tm.Sending = max(wrote.Sub(gotConnAt()), 0)
		if !first.IsZero() {
			c.tm.Waiting = first.Sub(wrote)
			c.tm.Receiving = end.Sub(first)
		}
	}
	c.tm.Status, c.tm.Proto = resp.StatusCode, resp.Proto
	if cerr != nil {
		return driver.Result{Status: resp.StatusCode, Err: cerr}
	}
	if resp.StatusCode >= 400 {
		return driver.Result{Status: resp.StatusCode, Err: &Status{Code: resp.StatusCode}}
	}
	return driver.Result{Rows: 1, Status: resp.StatusCode}
}

// LastTimings implements Timer.
func (c *stdConn) LastTimings() *Timings { return &c.tm }

func (c *stdConn) Close() error {
	c.client.CloseIdleConnections()
	return nil
}
