package nebula

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync/atomic"
	"time"

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
}

var (
	_ driver.Driver    = (*Driver)(nil)
	_ driver.Versioner = (*Driver)(nil)
)

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

	backoff time.Duration
	retryAt time.Time
	orphan  int64 // session id a broken connection left behind (0: none)
}

var _ driver.Conn = (*Conn)(nil)

// Do runs op.Query (with op.Args substituted as nGQL literals, see
// Render). Rows is the number of rows of the answer's data set.
func (c *Conn) Do(ctx context.Context, op *driver.Op) driver.Result {
	r, res := c.exec(ctx, op)
	if r != nil && r.Data != nil {
		res.Rows = int64(len(r.Data.Rows))
	}
	return res
}

// DoScan is Do that also stores the first row's values into dest:
// *int64 takes an integer, or a path's number of steps; *string takes a
// string; *float64 a float. Extra columns are ignored, missing ones leave
// dest unchanged.
func (c *Conn) DoScan(ctx context.Context, op *driver.Op, dest ...any) driver.Result {
	r, res := c.exec(ctx, op)
	if r == nil || r.Data == nil {
		return res
	}
	res.Rows = int64(len(r.Data.Rows))
	if res.Err != nil || len(r.Data.Rows) == 0 {
		return res
	}
	vals := r.Data.Rows[0].Values
	for i, d := range dest {
		if i >= len(vals) || vals[i] == nil {
			break
		}
		if err := scanValue(vals[i], d); err != nil {
			res.Err = err
			return res
		}
	}
	return res
}

func scanValue(v *graphsvc.Value, dest any) error {
	switch d := dest.(type) {
	case *int64:
		switch {
		case v.IVal != nil:
			*d = *v.IVal
		case v.PVal != nil:
			*d = int64(len(v.PVal.Steps))
		default:
			return errors.New("nebula: scan: value is not an integer or a path")
		}
	case *string:
		if v.SVal == nil {
			return errors.New("nebula: scan: value is not a string")
		}
		*d = string(v.SVal)
	case *float64:
		if v.FVal == nil {
			return errors.New("nebula: scan: value is not a float")
		}
		*d = *v.FVal
	default:
		return fmt.Errorf("nebula: scan into %T is not supported", dest)
	}
	return nil
}

// exec runs one operation, reconnecting first when the connection broke.
func (c *Conn) exec(ctx context.Context, op *driver.Op) (*graphsvc.ExecutionResponse, driver.Result) {
	if c.s == nil {
		if err := c.reconnect(ctx); err != nil {
			return nil, driver.Result{Err: err}
		}
	}
	stmt := op.Query
	if len(op.Args) > 0 {
		var err error
		if c.buf, err = Render(c.buf[:0], op.Query, op.Args); err != nil {
			return nil, driver.Result{Err: err}
		}
		stmt = string(c.buf)
	}
	octx, cancel := driver.OpContext(ctx, c.d.timeout)
	r, err := c.s.Execute(octx, stmt)
	cancel()
	if err != nil {
		// A call cut short leaves the stream mid-message: drop it.
		c.orphan = c.s.ID()
		c.s.Abandon()
		c.s = nil
		c.retryAt = time.Time{}
		if errors.Is(err, ErrTimeout) && ctx.Err() == nil {
			return nil, driver.Result{Err: &driver.TimeoutError{After: c.d.timeout}}
		}
		return nil, driver.Result{Err: driver.OpError(ctx, octx, c.d.timeout, err)}
	}
	res := driver.Result{ServerLatency: time.Duration(r.LatencyInUs) * time.Microsecond, HasLatency: true}
	if r.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
		res.Err = &ServerError{Code: r.ErrorCode, Msg: string(r.ErrorMsg)}
	}
	return r, res
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
