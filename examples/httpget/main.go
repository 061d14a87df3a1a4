// Command httpget runs stampede's http family from Go against a server it
// starts itself on loopback: 2 VUs for the given duration, the summary on
// stdout, e.g.
//
//	go run ./examples/httpget -d 3s -out httpget-result
//
// It imports the core (package stampede) and one built-in family
// (families/http), and links only those: no other family, no driver but
// HTTP's, no command line.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	nethttp "net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"time"

	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/families/http"
)

// run serves 204 No Content on loopback and measures GET / against it as
// args say; it returns the exit code: 0 ok, 1 run error, 2 bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("httpget", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dur := fs.Duration("d", 3*time.Second, "duration")
	out := fs.String("out", "httpget-result", "result directory (must not hold a run yet)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	srv := httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, _ *nethttp.Request) {
		w.WriteHeader(nethttp.StatusNoContent)
	}))
	defer srv.Close()
	opts := http.DefaultOptions()
	opts.ExpectStatus = nethttp.StatusNoContent
	if err := opts.Validate(); err != nil {
		fmt.Fprintln(stderr, "httpget:", err)
		return 2
	}
	plan := stampede.Plan{
		Scenarios: []stampede.PlanScenario{{Name: "http.Request", Family: http.New(opts),
			Config: stampede.Config{Executor: stampede.ConstantVUs, VUs: 2, Duration: *dur}}},
		Target: srv.URL, Out: *out,
	}
	res, err := stampede.Execute(ctx, plan, stampede.DefaultDeps(nil, os.Getenv))
	if err != nil {
		fmt.Fprintln(stderr, "httpget:", err)
		if stampede.IsUsage(err) {
			return 2
		}
		return 1
	}
	_ = res.WriteConsole(stdout, false)
	return 0
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
