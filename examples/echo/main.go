// Command echo runs a scenario written in Go with stampede's Go API:
// echo.RoundTrip times a 64-byte round trip to a TCP echo server on
// loopback, which the scenario starts itself, e.g.
//
//	go run ./examples/echo -u 4 -d 5s -threshold 'responseTime: p(99)<50' -out echo-result
//
// It imports only the package stampede (no built-in family, no command
// line), so it links only what it uses. Its family works with the whole
// command line too: cmdline.Main(ctx, families.Builtins().Add(echoFamily()),
// ...) makes `run echo.RoundTrip`, compare, merge and the rest (the test
// does exactly that).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"time"

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

// echoFamily is the family of echo.RoundTrip.
func echoFamily() stampede.Family {
	return stampede.NewFamily("echo", stampede.ScenarioDef{
		Name: "echo.RoundTrip", Description: "64-byte round trip to a TCP echo server on loopback", Scenario: &echoScenario{},
	})
}

// run runs echo.RoundTrip as args say and prints its summary on stdout;
// it returns the exit code: 0 ok, 1 run error, 2 bad usage, 99 a
// threshold failed.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("echo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	vus := fs.Int64("u", 2, "VUs")
	dur := fs.Duration("d", 5*time.Second, "duration")
	out := fs.String("out", "echo-result", "result directory (must not hold a run yet)")
	threshold := fs.String("threshold", "", "a k6 threshold, e.g. 'responseTime: p(99)<50'")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var ts stampede.Thresholds
	if *threshold != "" {
		var err error
		if ts, err = stampede.ParseThresholds(*threshold); err != nil {
			fmt.Fprintln(stderr, "echo:", err)
			return 2
		}
	}
	plan := stampede.Plan{
		Scenarios: []stampede.PlanScenario{{Name: "echo.RoundTrip", Family: echoFamily(),
			Config: stampede.Config{Executor: stampede.ConstantVUs, VUs: *vus, Duration: *dur}}},
		Out: *out, Thresholds: ts,
	}
	res, err := stampede.Execute(ctx, plan, stampede.DefaultDeps(nil, os.Getenv))
	if err != nil {
		fmt.Fprintln(stderr, "echo:", err)
		if stampede.IsUsage(err) {
			return 2
		}
		return 1
	}
	_ = res.WriteConsole(stdout, false)
	if res.ThresholdsFailed {
		return 99
	}
	return 0
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
