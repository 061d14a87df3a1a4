// Command stampede is a load and benchmark harness for graph databases and
// message queues. All logic lives in package stampede and below; main only
// wires the process.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/stampede-bench/stampede"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := stampede.Main(ctx, stampede.Builtins(), os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
