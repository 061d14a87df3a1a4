// Command stampede is a load and benchmark harness for graph databases and
// message queues. All logic lives in package stampede and below; main only
// wires the process.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/stampede-bench/stampede/cmdline"
	"github.com/stampede-bench/stampede/families"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cmdline.Main(ctx, families.Builtins(), os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
