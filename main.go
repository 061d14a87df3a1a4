package stampede

import (
	"context"
	"io"

	"github.com/stampede-bench/stampede/internal/cli"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Main runs the complete stampede command line with args (without the
// program name) around the families of catalog (nil: the built-in ones),
// with the outputs the catalog added (Catalog.AddOutput) besides
// stampede's own for --out NAME=ARG, and returns the process exit code: 0 ok, 1 run error, 2 bad usage or
// input, 99 thresholds failed, 130 interrupted. Errors reach stderr as one
// line. Main never calls os.Exit; a program's main is
//
//	func main() {
//		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
//		code := stampede.Main(ctx, catalog, os.Args[1:], os.Stdout, os.Stderr)
//		stop()
//		os.Exit(code)
//	}
func Main(ctx context.Context, catalog *Catalog, args []string, stdout, stderr io.Writer) int {
	if catalog == nil {
		catalog = Builtins()
	}
	return cli.MainProgram(ctx, cli.Program{
		Catalog: func() *workload.Catalog { return catalog.workload() },
		Outputs: catalog.Outputs(),
	}, args, stdout, stderr)
}
