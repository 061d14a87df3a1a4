package cli

import (
	"context"
	"io"
)

// Main is MainProgram with the built-in families and stampede's outputs,
// for the tests (programs call cmdline.Main).
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return MainProgram(ctx, Program{}, args, stdout, stderr)
}
