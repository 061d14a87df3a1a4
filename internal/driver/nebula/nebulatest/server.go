// Package nebulatest is an in-test stand-in for NebulaGraph's graph
// service (graphd): a Thrift server generated from the same IDL as the
// driver (package graphsvc), speaking THeader over real loopback sockets,
// that answers the nGQL shapes stampede sends (schema statements, INSERT
// VERTEX/EDGE, GO, FIND SHORTEST PATH, FETCH PROP, LOOKUP, SUBMIT JOB
// STATS / SHOW STATS, and the openCypher MATCH subset of the LDBC
// Interactive reads, see match.go) from an in-memory graph (Store).
//
// It is NOT NebulaGraph: no storage or meta service, no partitions or
// replication, no query planner (MATCH is interpreted row by row), one
// shortest path instead of all of them, and latency_in_us is the
// stand-in's own handling time. It exists
// so that the driver, the nGQL statements, the loader, error codes,
// handshake and authentication failures, timeouts, broken connections
// and address balancing are exercised where no NebulaGraph server can run.
package nebulatest

import (
	"bufio"
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// Options shape a stand-in graphd's behaviour.
type Options struct {
	// Users maps user names to passwords (default root/nebula).
	Users map[string]string
	// ClientVersions are the accepted verifyClientVersion versions
	// (default "3.0.0"); others get E_CLIENT_SERVER_INCOMPATIBLE.
	ClientVersions []string
	// Delay, when set, is called before each execute and the server sleeps
	// for what it returns (timeouts).
	Delay func(stmt string) time.Duration
	// Fail, when set, may answer a statement with an error code instead.
	Fail func(stmt string) (graphsvc.ErrorCode, string, bool)
}

// Server is one stand-in graphd on a loopback port.
type Server struct {
	store *Store
	opts  Options
	ln    net.Listener

	mu    sync.Mutex
	conns map[net.Conn]bool
	wg    sync.WaitGroup

	sessions sync.Map // id -> *string (current space)
	nextID   *atomic.Int64

	// Counters, for tests.
	Accepted, Authenticated, SignedOut, Executed atomic.Int64
}

var sessionIDs atomic.Int64

// Start starts a stand-in graphd for store on 127.0.0.1 and a free port.
func Start(store *Store, opts Options) (*Server, error) {
	if opts.Users == nil {
		opts.Users = map[string]string{"root": "nebula"}
	}
	if opts.ClientVersions == nil {
		opts.ClientVersions = []string{"3.0.0"}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{store: store, opts: opts, ln: ln, conns: map[net.Conn]bool{}, nextID: &sessionIDs}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Store is the graph the server answers from.
func (s *Server) Store() *Store { return s.store }

// Close stops accepting, closes every connection and waits for them.
func (s *Server) Close() {
	s.ln.Close()
	s.KillConns()
	s.wg.Wait()
}

// KillConns closes every open connection (a graphd crash or a network
// cut, as the clients see it).
func (s *Server) KillConns() {
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
}

// Conns is the number of open connections.
func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.Accepted.Add(1)
		s.mu.Lock()
		s.conns[c] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go s.serve(c)
	}
}

// serve answers one connection's calls until it closes.
func (s *Server) serve(c net.Conn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		c.Close()
	}()
	cfg := &thrift.TConfiguration{}
	ht := thrift.NewTHeaderTransportConf(&connTransport{c: c, w: bufio.NewWriter(c)}, cfg)
	proto := thrift.NewTHeaderProtocolConf(ht, cfg)
	proc := graphsvc.NewGraphServiceProcessor(&handler{s: s})
	ctx := context.Background()
	for {
		ok, err := proc.Process(ctx, proto, proto)
		if err != nil || !ok {
			return
		}
	}
}

// connTransport is a net.Conn as a thrift.TTransport. Writes are
// buffered until Flush, so that each answer leaves in one write, as
// graphd sends a frame: Apache's THeaderTransport writes the length and
// the rest of a frame separately, which would make every client read an
// answer in two wake-ups.
type connTransport struct {
	c net.Conn
	w *bufio.Writer
}

func (t *connTransport) Read(p []byte) (int, error)  { return t.c.Read(p) }
func (t *connTransport) Write(p []byte) (int, error) { return t.w.Write(p) }
func (t *connTransport) Flush(context.Context) error { return t.w.Flush() }
func (t *connTransport) Close() error                { return t.c.Close() }
func (t *connTransport) Open() error                 { return nil }
func (t *connTransport) IsOpen() bool                { return true }
func (t *connTransport) RemainingBytes() uint64      { return ^uint64(0) }

// handler implements the generated graphsvc.GraphService.
type handler struct{ s *Server }

var _ graphsvc.GraphService = (*handler)(nil)

func (h *handler) VerifyClientVersion(_ context.Context, req *graphsvc.VerifyClientVersionReq) (*graphsvc.VerifyClientVersionResp, error) {
	for _, v := range h.s.opts.ClientVersions {
		if v == string(req.Version) {
			return &graphsvc.VerifyClientVersionResp{ErrorCode: graphsvc.ErrorCode_SUCCEEDED}, nil
		}
	}
	return &graphsvc.VerifyClientVersionResp{ErrorCode: graphsvc.ErrorCode_E_CLIENT_SERVER_INCOMPATIBLE,
		ErrorMsg: []byte("Graph client version(" + string(req.Version) + ") is not accepted")}, nil
}

func (h *handler) Authenticate(_ context.Context, user, pass []byte) (*graphsvc.AuthResponse, error) {
	if p, ok := h.s.opts.Users[string(user)]; !ok || p != string(pass) {
		return &graphsvc.AuthResponse{ErrorCode: graphsvc.ErrorCode_E_BAD_USERNAME_PASSWORD, ErrorMsg: []byte("Invalid password")}, nil
	}
	id := h.s.nextID.Add(1)
	space := ""
	h.s.sessions.Store(id, &space)
	h.s.Authenticated.Add(1)
	return &graphsvc.AuthResponse{ErrorCode: graphsvc.ErrorCode_SUCCEEDED, SessionID: &id}, nil
}

func (h *handler) Signout(_ context.Context, id int64) error {
	if _, ok := h.s.sessions.LoadAndDelete(id); ok {
		h.s.SignedOut.Add(1)
	}
	return nil
}

// Sessions is the number of sessions not signed out.
func (s *Server) Sessions() int {
	n := 0
	s.sessions.Range(func(any, any) bool { n++; return true })
	return n
}

func (h *handler) Execute(_ context.Context, id int64, stmt []byte) (*graphsvc.ExecutionResponse, error) {
	t0 := time.Now()
	h.s.Executed.Add(1)
	v, ok := h.s.sessions.Load(id)
	if !ok {
		return &graphsvc.ExecutionResponse{ErrorCode: graphsvc.ErrorCode_E_SESSION_INVALID, ErrorMsg: []byte("Session not existed!")}, nil
	}
	q := string(stmt)
	if h.s.opts.Delay != nil {
		time.Sleep(h.s.opts.Delay(q))
	}
	if h.s.opts.Fail != nil {
		if code, msg, fail := h.s.opts.Fail(q); fail {
			return &graphsvc.ExecutionResponse{ErrorCode: code, ErrorMsg: []byte(msg), LatencyInUs: time.Since(t0).Microseconds()}, nil
		}
	}
	space := v.(*string)
	ds, serr := h.s.store.exec(space, q)
	r := &graphsvc.ExecutionResponse{ErrorCode: graphsvc.ErrorCode_SUCCEEDED, Data: ds}
	if *space != "" {
		r.SpaceName = []byte(*space)
	}
	if serr != nil {
		r.ErrorCode, r.ErrorMsg, r.Data = serr.code, []byte(serr.msg), nil
	}
	r.LatencyInUs = max(time.Since(t0).Microseconds(), 1)
	return r, nil
}

func (h *handler) ExecuteWithParameter(context.Context, int64, []byte, map[string]*graphsvc.Value) (*graphsvc.ExecutionResponse, error) {
	return nil, errors.New("executeWithParameter: not supported by the stand-in")
}

// Cluster is several stand-in graphds over one store, as a NebulaGraph
// cluster has several graphd addresses.
type Cluster struct {
	Store   *Store
	Servers []*Server
}

// StartCluster starts n graphds over a new store.
func StartCluster(n int, opts Options) (*Cluster, error) {
	c := &Cluster{Store: NewStore()}
	for range n {
		s, err := Start(c.Store, opts)
		if err != nil {
			c.Close()
			return nil, err
		}
		c.Servers = append(c.Servers, s)
	}
	return c, nil
}

// Addrs are the graphd addresses.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.Servers))
	for i, s := range c.Servers {
		out[i] = s.Addr()
	}
	return out
}

// Close stops every graphd.
func (c *Cluster) Close() {
	for _, s := range c.Servers {
		s.Close()
	}
}
