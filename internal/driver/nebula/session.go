package nebula

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// Session is one connection to one graphd with one authenticated session:
// what a VU, the loader or a version probe uses. Not safe for concurrent
// use.
type Session struct {
	addr   string
	nc     net.Conn
	framer *headerFramer
	client *graphsvc.GraphServiceClient
	id     int64

	// The fast path (run): its own sequence ids, and the context whose
	// cancellation interrupts the socket (see watch).
	seq         int32
	mu          sync.Mutex // guards watchedDone against the watcher
	watchedDone <-chan struct{}
	unwatch     func() bool
}

// Addr is the graphd address of the session.
func (s *Session) Addr() string { return s.addr }

// ID is the session id graphd assigned.
func (s *Session) ID() int64 { return s.id }

// Dial connects to addr and opens a session: verifyClientVersion,
// authenticate, then USE cfg.Space when it is set. ctx and
// cfg.ConnectTimeout bound the whole handshake. Errors name the step that
// failed and never contain the password.
func Dial(ctx context.Context, addr string, cfg *Config) (*Session, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", addr, err)
	}
	s := &Session{addr: addr, nc: nc, framer: newHeaderFramer(nc)}
	p := thrift.NewTCompactProtocolConf(s.framer, &thrift.TConfiguration{})
	s.client = graphsvc.NewGraphServiceClient(thrift.NewTStandardClient(p, p))
	fail := func(step string, err error) (*Session, error) {
		nc.Close()
		return nil, fmt.Errorf("%s %s: %w", step, addr, err)
	}
	stop := s.bound(ctx)
	req := &graphsvc.VerifyClientVersionReq{Version: []byte(cfg.ClientVersion)}
	vr, err := s.client.VerifyClientVersion(ctx, req)
	stop()
	if err != nil {
		return fail("client version handshake with", transportError(ctx, err))
	}
	if vr.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
		return fail("client version handshake with", &ServerError{Code: vr.ErrorCode, Msg: string(vr.ErrorMsg)})
	}
	if err := s.login(ctx, cfg); err != nil {
		nc.Close()
		return nil, err
	}
	return s, nil
}

// login authenticates as cfg.User, then makes cfg.Space current when it is
// set. The caller closes the connection on an error.
func (s *Session) login(ctx context.Context, cfg *Config) error {
	addr := s.addr
	stop := s.bound(ctx)
	ar, err := s.client.Authenticate(ctx, []byte(cfg.User), []byte(cfg.Password))
	stop()
	if err != nil {
		return fmt.Errorf("authenticate at %s: %w", addr, transportError(ctx, err))
	}
	if ar.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
		return fmt.Errorf("authenticate as %s at %s: %w", cfg.User, addr, &ServerError{Code: ar.ErrorCode, Msg: string(ar.ErrorMsg)})
	}
	if ar.SessionID == nil {
		return fmt.Errorf("authenticate at %s: %w", addr, errors.New("no session id in the answer"))
	}
	s.id = *ar.SessionID
	if cfg.Space != "" {
		r, err := s.Execute(ctx, "USE "+QuoteName(cfg.Space))
		if err == nil && r.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
			err = &ServerError{Code: r.ErrorCode, Msg: string(r.ErrorMsg)}
		}
		if err != nil {
			s.Signout(ctx, s.id)
			return fmt.Errorf("use space %s at %s: %w", cfg.Space, addr, err)
		}
	}
	return nil
}

// Relogin authenticates again on the session's open connection, after
// graphd dropped the session (E_SESSION_INVALID, E_SESSION_TIMEOUT): a
// new session id, cfg.Space current again. ctx and cfg.ConnectTimeout
// bound it. An error means the connection must be discarded.
func (s *Session) Relogin(ctx context.Context, cfg *Config) error {
	ctx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout)
	defer cancel()
	return s.login(ctx, cfg)
}

// bound makes ctx's deadline and cancellation apply to the socket until
// the returned stop is called.
func (s *Session) bound(ctx context.Context) (stop func() bool) {
	dl, _ := ctx.Deadline()
	s.nc.SetDeadline(dl) // zero: none
	if ctx.Done() == nil {
		return func() bool { return true }
	}
	return context.AfterFunc(ctx, func() { s.nc.SetDeadline(time.Unix(1, 0)) })
}

// Execute runs one statement. A non-nil error means the connection failed
// (or ctx ended) and the session must be discarded; a statement the
// server rejected is a response with a non-zero ErrorCode.
func (s *Session) Execute(ctx context.Context, stmt string) (*graphsvc.ExecutionResponse, error) {
	stop := s.bound(ctx)
	r, err := s.client.Execute(ctx, s.id, []byte(stmt))
	stop()
	if err != nil {
		return nil, transportError(ctx, err)
	}
	return r, nil
}

// run executes stmt on the fast path: stampede's own compact encoder and
// decoder (compact.go) on the reused frame buffers, no allocation in the
// steady state. The caller sets the socket deadline (see watch). out's
// byte slices point into the frame buffer until the next call. An error
// means the session must be discarded.
func (s *Session) run(stmt string, out *reply) error {
	s.seq++
	f := s.framer
	f.w = appendExecuteCall(f.w[:headerLen], s.seq, s.id, stmt)
	if err := f.Flush(context.Background()); err != nil {
		return err
	}
	if err := f.next(); err != nil {
		return err
	}
	msg := f.r[f.rp:]
	f.rp = len(f.r)
	return decodeExecuteReply(msg, s.seq, out)
}

// watch makes the cancellation of ctx interrupt the socket: it sets a
// deadline in the past. It is registered once per context (compared by
// its Done channel), so the steady state of a VU costs nothing; callers
// check ctx.Err() after setting their own deadline, so a cancellation
// between two calls is not lost. A watcher that fires late, after the
// session moved on to another context, does nothing (mu).
func (s *Session) watch(ctx context.Context) {
	done := ctx.Done()
	if done == s.watchedDone {
		return
	}
	s.stopWatching()
	if done == nil { // a context that cannot end
		return
	}
	s.mu.Lock()
	s.watchedDone = done
	s.mu.Unlock()
	s.unwatch = context.AfterFunc(ctx, func() {
		s.mu.Lock()
		if s.watchedDone == done {
			s.nc.SetDeadline(time.Unix(1, 0))
		}
		s.mu.Unlock()
	})
}

func (s *Session) stopWatching() {
	if s.unwatch == nil {
		return
	}
	s.unwatch()
	s.mu.Lock()
	s.unwatch, s.watchedDone = nil, nil
	s.mu.Unlock()
}

// Close signs the session out (a oneway call, best effort) and closes the
// connection.
func (s *Session) Close() error {
	s.stopWatching()
	s.nc.SetDeadline(time.Now().Add(time.Second))
	_ = s.client.Signout(context.Background(), s.id)
	return s.nc.Close()
}

// Abandon closes the connection without signing out (it is broken).
func (s *Session) Abandon() { s.stopWatching(); s.nc.Close() }

// Signout ends another session (one a broken connection left behind) on
// this connection: a oneway call, best effort.
func (s *Session) Signout(ctx context.Context, id int64) {
	stop := s.bound(ctx)
	_ = s.client.Signout(ctx, id)
	stop()
}

// ErrTimeout is wrapped by errors of calls whose deadline passed.
var ErrTimeout = errors.New("deadline exceeded")

// transportError turns a failed call into a short, stable error: the
// context's end when it ended, else the socket's failure.
func transportError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return ErrTimeout
		}
		return ctx.Err()
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return ErrTimeout
	}
	var te thrift.TTransportException
	if errors.As(err, &te) && te.Err() != nil {
		err = te.Err()
	}
	return &BrokenError{Err: err}
}

// BrokenError is a connection that failed mid-call.
type BrokenError struct{ Err error }

func (e *BrokenError) Error() string { return "connection broken: " + stableNetError(e.Err) }
func (e *BrokenError) Unwrap() error { return e.Err }

// stableNetError drops addresses and ports from a network error so that
// identical failures group together.
func stableNetError(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Op + ": " + op.Err.Error()
	}
	if errors.Is(err, errEOF) {
		return "closed by the server (EOF)"
	}
	return err.Error()
}
