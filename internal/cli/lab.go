package cli

import (
	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/labrun"
)

// newLabCmd is `stampede lab [PRESET]` and `stampede lab clean`
// (labrun.Command).
func newLabCmd(env *Env) *cobra.Command { return familyCommand(env, labrun.Command()) }
