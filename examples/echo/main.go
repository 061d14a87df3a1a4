// Command echo is stampede with one more scenario, written in Go:
// echo.RoundTrip times a 64-byte round trip to a TCP echo server on
// loopback, which the scenario starts itself. Every stampede command works
// with it, e.g.
//
//	go run ./examples/echo run echo.RoundTrip -u 4 -d 5s --threshold 'responseTime: p(99)<50'
package main

import (
	"context"
	"io"
	"net"
	"os"
	"os/signal"

	"github.com/stampede-bench/stampede"
)

// echoScenario serves TCP echo on 127.0.0.1 while it runs.
type echoScenario struct{ ln net.Listener }

func (s *echoScenario) Setup(context.Context) (err error) {
	if s.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return err
	}
	go func() {
		for c, err := s.ln.Accept(); err == nil; c, err = s.ln.Accept() {
			go func() { io.Copy(c, c); c.Close() }()
		}
	}()
	return nil
}

func (s *echoScenario) Teardown(context.Context) error { return s.ln.Close() }

func (s *echoScenario) Notes() []string {
	return []string{"the target is an echo server inside stampede's process: it shares the generator's CPU"}
}

func (s *echoScenario) NewVU(ctx context.Context, _ int) (stampede.VU, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", s.ln.Addr().String())
	if err != nil {
		return nil, err
	}
	return &echoVU{conn: c, msg: make([]byte, 64), buf: make([]byte, 64)}, nil
}

type echoVU struct {
	conn     net.Conn
	msg, buf []byte
}

func (v *echoVU) Iterate(_ context.Context, it stampede.Iteration) error {
	start := it.Now()
	_, err := v.conn.Write(v.msg)
	if err == nil {
		_, err = io.ReadFull(v.conn, v.buf)
	}
	it.RecordRequest("echo 64B", start, stampede.Outcome{Err: err, Rows: 1})
	return nil
}

func (v *echoVU) Close() error { return v.conn.Close() }

// catalog is stampede's own families plus the echo family.
func catalog() *stampede.Catalog {
	return stampede.Builtins().Add(stampede.NewFamily("echo", stampede.ScenarioDef{
		Name: "echo.RoundTrip", Description: "64-byte round trip to a TCP echo server on loopback", Scenario: &echoScenario{},
	}))
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := stampede.Main(ctx, catalog(), os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
