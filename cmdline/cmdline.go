// Package cmdline is the complete stampede command line around a
// program's catalog (Main): run, compare, merge, sweep, report and the
// rest. It links every command and, with the built-in families
// (families.Builtins), every family; a program that drives runs from Go
// imports only the package stampede (Execute) and the families it uses.
package cmdline

import (
	"context"
	"io"

	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/families"
	"github.com/stampede-bench/stampede/internal/cli"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Main runs the complete stampede command line with args (without the
// program name) around the families of catalog (nil: the built-in ones,
// families.Builtins),
// with the outputs the catalog added (Catalog.AddOutput) besides
// stampede's own for --out NAME=ARG, and returns the process exit code: 0 ok, 1 run error, 2 bad usage or
// input, 99 thresholds failed, 130 interrupted. Errors reach stderr as one
// line. Main never calls os.Exit; a program's main is
//
//	func main() {
//		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
//		code := cmdline.Main(ctx, catalog, os.Args[1:], os.Stdout, os.Stderr)
//		stop()
//		os.Exit(code)
//	}
func Main(ctx context.Context, catalog *stampede.Catalog, args []string, stdout, stderr io.Writer) int {
	if catalog == nil {
		catalog = families.Builtins()
	}
	return cli.MainProgram(ctx, cli.Program{
		Catalog: func() *workload.Catalog { return workload.NewCatalog(catalog.Families()...) },
		Outputs: catalog.Outputs(),
	}, args, stdout, stderr)
}
