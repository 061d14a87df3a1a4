package nebula

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// Register adds the driver to r under "nebula".
func Register(r *driver.Registry) { r.Register(Open, Scheme) }

// Backoff bounds of reconnecting a broken connection: the first retry
// waits MinBackoff, each failure doubles it up to MaxBackoff.
const (
	MinBackoff = 50 * time.Millisecond
	MaxBackoff = 2 * time.Second
)

// Driver opens per-VU sessions to one NebulaGraph cluster. It implements
// driver.Driver and driver.Versioner; safe for concurrent use.
type Driver struct {
	cfg     *Config
	timeout time.Duration
	next    atomic.Uint64 // round-robin over cfg.Addrs

	// What the connections recovered (driver.Recoverer).
	reconnects, relogins atomic.Int64
}

var (
	_ driver.Driver    = (*Driver)(nil)
	_ driver.Versioner = (*Driver)(nil)
	_ driver.Recoverer = (*Driver)(nil)
)

// Recoveries counts, over every connection of the driver, the reconnects
// after broken connections and the logins after the server dropped a
// session.
func (d *Driver) Recoveries() driver.Recoveries {
	return driver.Recoveries{Reconnects: d.reconnects.Load(), Relogins: d.relogins.Load()}
}

// Open is the driver.Opener of nebula:// URLs. It opens one session to
// check the target (address, handshake, credentials, space) before
// returning.
func Open(ctx context.Context, u *url.URL, opts driver.Options) (driver.Driver, error) {
	cfg, err := ParseConfig(u, opts.Getenv)
	if err != nil {
		return nil, err
	}
	d := New(cfg, opts.Timeout)
	s, err := d.dial(ctx, 0)
	if err != nil {
		return nil, err
	}
	s.Close()
	return d, nil
}

// New returns a driver for cfg; timeout bounds each operation (0: none).
func New(cfg *Config, timeout time.Duration) *Driver {
	return &Driver{cfg: cfg, timeout: timeout}
}

// Config is the driver's parsed target.
func (d *Driver) Config() *Config { return d.cfg }

// dial opens a session to address number i (mod the address count).
func (d *Driver) dial(ctx context.Context, i uint64) (*Session, error) {
	return Dial(ctx, d.cfg.Addrs[i%uint64(len(d.cfg.Addrs))], d.cfg)
}

// Session opens a session to the next address (round-robin), for callers
// that run statements themselves (the loader).
func (d *Driver) Session(ctx context.Context) (*Session, error) {
	return d.dial(ctx, d.next.Add(1)-1)
}

// Conn opens one VU's connection on the next address (round-robin).
func (d *Driver) Conn(ctx context.Context) (driver.Conn, error) {
	i := d.next.Add(1) - 1
	s, err := d.dial(ctx, i)
	if err != nil {
		return nil, err
	}
	return &Conn{d: d, s: s, addr: i}, nil
}

// Close releases nothing: sessions belong to their connections.
func (d *Driver) Close() error { return nil }

// Version asks a graphd its version (SHOW HOSTS GRAPH, column Version).
func (d *Driver) Version(ctx context.Context) (string, error) {
	s, err := d.dial(ctx, 0)
	if err != nil {
		return "", err
	}
	defer s.Close()
	r, err := s.Execute(ctx, "SHOW HOSTS GRAPH")
	if err != nil {
		return "", err
	}
	if r.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
		return "", &ServerError{Code: r.ErrorCode, Msg: string(r.ErrorMsg)}
	}
	col := -1
	if r.Data != nil {
		for i, n := range r.Data.ColumnNames {
			if string(n) == "Version" {
				col = i
			}
		}
	}
	if col < 0 || len(r.Data.Rows) == 0 || len(r.Data.Rows[0].Values) <= col {
		return "", errors.New("SHOW HOSTS GRAPH has no Version column")
	}
	v := r.Data.Rows[0].Values[col]
	if v.SVal == nil {
		return "", errors.New("SHOW HOSTS GRAPH: Version is not a string")
	}
	if string(v.SVal) == StandInVersion {
		return StandInVersion, nil
	}
	return "NebulaGraph " + string(v.SVal), nil
}

// Conn is one VU's session. Not safe for concurrent use.
type Conn struct {
	d    *Driver
	s    *Session // nil while broken
	addr uint64   // index of the address in use
	buf  []byte   // rendered statement of ops with Args
	rep  reply    // the last answer (valid while ok)
	ok   bool

	backoff time.Duration
	retryAt time.Time
	orphan  int64 // session id a broken connection left behind (0: none)
	relogin bool  // graphd dropped the session: log in again before the next call
}

var _ driver.Conn = (*Conn)(nil)

// Do runs op.Query (with op.Args substituted as nGQL literals, see
// Render). Rows is the number of rows of the answer's data set.
func (c *Conn) Do(ctx context.Context, op *driver.Op) driver.Result {
	c.rep.wantFirst = false
	return c.exec(ctx, op)
}

// DoScan is Do that also stores the first row's values into dest:
// *int64 takes an integer, or a path's number of steps; *string takes a
// string; *float64 a float. Extra columns are ignored, missing ones leave
// dest unchanged.
func (c *Conn) DoScan(ctx context.Context, op *driver.Op, dest ...any) driver.Result {
	c.rep.wantFirst = true
	res := c.exec(ctx, op)
	if res.Err != nil || !c.ok || res.Rows == 0 {
		return res
	}
	vals := c.rep.first
	for i, d := range dest {
		if i >= len(vals) {
			break
		}
		if err := scanValue(&vals[i], d); err != nil {
			res.Err = err
			return res
		}
	}
	return res
}

func scanValue(v *value, dest any) error {
	switch d := dest.(type) {
	case *int64:
		switch v.field {
		case valInt:
			*d = v.i
		case valPath:
			*d = int64(v.steps)
		default:
			return errors.New("nebula: scan: value is not an integer or a path")
		}
	case *string:
		if v.field != valString {
			return errors.New("nebula: scan: value is not a string")
		}
		*d = string(v.s)
	case *float64:
		if v.field != valFloat {
			return errors.New("nebula: scan: value is not a float")
		}
		*d = v.f
	default:
		return fmt.Errorf("nebula: scan into %T is not supported", dest)
	}
	return nil
}

// exec runs one operation on the session's fast path (Session.run),
// reconnecting first when the connection broke. c.ok tells whether c.rep
// holds an answer. The operation's deadline (the driver's timeout, or
// ctx's deadline when earlier) is the socket's deadline, and the
// session watches ctx's cancellation (Session.watch): no context or
// timer is made per call.
func (c *Conn) exec(ctx context.Context, op *driver.Op) driver.Result {
	c.ok = false
	if c.s != nil && c.relogin {
		c.relogin = false
		if err := c.s.Relogin(ctx, c.d.cfg); err != nil {
			if ctx.Err() != nil {
				return driver.Result{Err: ctx.Err()}
			}
			c.s.Abandon() // the login failed mid-call: open a new connection
			c.s, c.retryAt = nil, time.Time{}
		} else {
			c.d.relogins.Add(1)
		}
	}
	if c.s == nil {
		if err := c.reconnect(ctx); err != nil {
			return driver.Result{Err: err}
		}
	}
	stmt := op.Query
	if len(op.Args) > 0 {
		var err error
		if c.buf, err = Render(c.buf[:0], op.Query, op.Args); err != nil {
			return driver.Result{Err: err}
		}
		stmt = unsafeString(c.buf)
	}
	s := c.s
	s.watch(ctx)
	var dl time.Time
	if c.d.timeout > 0 {
		dl = time.Now().Add(c.d.timeout)
	}
	if cd, ok := ctx.Deadline(); ok && (dl.IsZero() || cd.Before(dl)) {
		dl = cd
	}
	s.nc.SetDeadline(dl)
	if err := ctx.Err(); err != nil {
		return driver.Result{Err: err}
	}
	if err := s.run(stmt, &c.rep); err != nil {
		// A call cut short leaves the stream mid-message: drop it.
		c.orphan = s.ID()
		s.Abandon()
		c.s = nil
		c.retryAt = time.Time{}
		return driver.Result{Err: c.callError(ctx, err)}
	}
	c.ok = true
	r := &c.rep
	res := driver.Result{ServerLatency: time.Duration(r.latencyUs) * time.Microsecond, HasLatency: true}
	if r.hasData {
		res.Rows = int64(r.rows)
	}
	if r.code != int32(graphsvc.ErrorCode_SUCCEEDED) {
		code := graphsvc.ErrorCode(r.code)
		res.Err = &ServerError{Code: code, Msg: string(r.msg)}
		// The session is gone (graphd restarted, it expired, or an
		// operator killed it) while the connection is fine: log in again
		// before the next call rather than fail every call to the end.
		c.relogin = code == graphsvc.ErrorCode_E_SESSION_INVALID || code == graphsvc.ErrorCode_E_SESSION_TIMEOUT
	}
	return res
}

// callError is the error to report for a failed call: the run's own end
// unchanged (the engine's stop), a TimeoutError when the driver's
// timeout passed, else a BrokenError.
func (c *Conn) callError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		if cd, ok := ctx.Deadline(); ok && !time.Now().Before(cd) {
			return context.DeadlineExceeded
		}
		return &driver.TimeoutError{After: c.d.timeout}
	}
	return &BrokenError{Err: err}
}

// reconnect opens a new session after a broken one, on the next address,
// waiting out the backoff first (bounded by ctx). The first attempt after
// a break does not wait.
func (c *Conn) reconnect(ctx context.Context) error {
	if wait := time.Until(c.retryAt); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	c.addr++
	s, err := c.d.dial(ctx, c.addr)
	if err != nil {
		c.backoff = min(max(2*c.backoff, MinBackoff), MaxBackoff)
		c.retryAt = time.Now().Add(c.backoff)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("reconnect: %s", stableDialError(err))
	}
	c.s, c.backoff = s, 0
	c.d.reconnects.Add(1)
	if c.orphan != 0 {
		s.Signout(ctx, c.orphan)
		c.orphan = 0
	}
	return nil
}

// stableDialError is a dial error without addresses, so that the failures
// of all VUs group together.
func stableDialError(err error) string {
	var se *ServerError
	if errors.As(err, &se) {
		return se.Error()
	}
	var be *BrokenError
	if errors.As(err, &be) {
		return be.Error()
	}
	return stableNetError(err)
}

// Close signs the session out and closes the connection.
func (c *Conn) Close() error {
	if c.s == nil {
		return nil
	}
	err := c.s.Close()
	c.s = nil
	return err
}

// unsafeString views b as a string without copying, for a statement that
// is only appended to the request frame before b is written again.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
