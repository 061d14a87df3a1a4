package prom

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// DefaultHost is where the endpoint binds when the address names no host.
const DefaultHost = "127.0.0.1"

// ResolveAddr turns a --prometheus value into a listen address. A bare
// port ("9464") or an empty host (":9464") binds the loopback interface
// only: serving other machines takes an explicit host, e.g. "0.0.0.0:9464"
// or "10.1.2.3:9464".
func ResolveAddr(addr string) (string, error) {
	addr = strings.TrimSpace(addr)
	if addr == "" {
		return "", errors.New("empty address")
	}
	if _, err := strconv.ParseUint(addr, 10, 16); err == nil {
		return net.JoinHostPort(DefaultHost, addr), nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("address %q: want HOST:PORT, e.g. 127.0.0.1:9464", addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", fmt.Errorf("address %q: port %q is not a number", addr, port)
	}
	if host == "" {
		host = DefaultHost
	}
	return net.JoinHostPort(host, port), nil
}

// Server serves /metrics for one run.
type Server struct {
	ln  net.Listener
	srv *http.Server
	err chan error

	once     sync.Once
	closeErr error

	scrapes scrapeLog
}

// NewRegistry returns a registry with c and the standard Go runtime and
// process collectors (process_cpu_seconds_total, go_goroutines, ...).
func NewRegistry(c *Collector) *prometheus.Registry {
	r := prometheus.NewRegistry()
	r.MustRegister(c, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return r
}

// Serve listens on addr (see ResolveAddr) at once, so a busy port fails
// before the run starts, and serves g on /metrics in the background.
func Serve(addr string, g prometheus.Gatherer) (*Server, error) {
	a, err := ResolveAddr(addr)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", a)
	if err != nil {
		return nil, fmt.Errorf("prometheus endpoint: %w", err)
	}
	mux := http.NewServeMux()
	s := &Server{ln: ln, err: make(chan error, 1)}
	metricsHandler := promhttp.HandlerFor(g, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
	mux.Handle("/metrics", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.scrapes.start(time.Now())
		metricsHandler.ServeHTTP(w, r)
	}))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "stampede: metrics at /metrics")
	})
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { s.err <- s.srv.Serve(ln) }()
	return s, nil
}

// Addr is the address the server listens on (with the real port when
// the given one was 0).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server, letting scrapes in flight finish for up to 2s.
// Further calls return the first result.
func (s *Server) Close() error {
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		err := s.srv.Shutdown(ctx)
		if serr := <-s.err; !errors.Is(serr, http.ErrServerClosed) && err == nil {
			err = serr
		}
		s.closeErr = err
	})
	return s.closeErr
}
