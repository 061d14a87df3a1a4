package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

func newScenariosCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "scenarios",
		Short: "List the scenarios stampede can run",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
			for _, fam := range env.catalog().Families() {
				fmt.Fprintf(tw, "%s:\n", fam.Name())
				for _, s := range fam.Scenarios() {
					def := ""
					if s.Default {
						def = " (default)"
					}
					fmt.Fprintf(tw, "  %s\t%s%s\n", s.Name, s.Description, def)
				}
			}
			return tw.Flush()
		},
	}
}
