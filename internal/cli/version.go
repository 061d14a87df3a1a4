package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/version"
)

func newVersionCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the stampede version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(env.Stdout, "stampede %s (%s, %s/%s)\n", version.String(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
