// Command stampede is a load and benchmark harness for graph databases and
// message queues. All logic lives in internal/cli; main only wires the process.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/stampede-bench/stampede/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
