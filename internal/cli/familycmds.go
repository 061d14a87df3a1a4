package cli

import (
	"errors"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/termio"
	"github.com/stampede-bench/stampede/internal/workload"
)

// addFamilyCommands adds the commands the families of env's catalog
// contribute (workload.Commander) to root; a group that is already there
// gets the new group's subcommands.
func addFamilyCommands(env *Env, root *cobra.Command) {
	for _, c := range env.catalog().Commands() {
		if c.Run == nil {
			if have := findCommand(root, c.Use); have != nil {
				for _, sub := range c.Sub {
					have.AddCommand(familyCommand(env, sub))
				}
				continue
			}
		}
		root.AddCommand(familyCommand(env, c))
	}
}

// findCommand returns parent's subcommand named by use's first word.
func findCommand(parent *cobra.Command, use string) *cobra.Command {
	name, _, _ := strings.Cut(use, " ")
	for _, c := range parent.Commands() {
		if c.Name() == name {
			return c
		}
	}
	return nil
}

// familyCommand translates a contributed command into a cobra command.
func familyCommand(env *Env, c workload.Command) *cobra.Command {
	cmd := &cobra.Command{Use: c.Use, Short: c.Short, Long: c.Long, Example: c.Example, Hidden: c.Hidden}
	if c.Run != nil {
		cmd.Args = cobra.MaximumNArgs(c.MaxArgs)
		if c.MaxArgs == 0 {
			cmd.Args = cobra.NoArgs
		}
	}
	if c.Flags != nil {
		c.Flags(cmd.Flags())
	}
	if c.Run != nil {
		run := c.Run
		cmd.RunE = func(cmd *cobra.Command, args []string) error {
			err := run(cmd.Context(), &workload.CommandEnv{
				Args: args, CommandLine: env.args,
				Stdin: os.Stdin, Stdout: env.Stdout, Stderr: env.Stderr, StderrTerminal: termio.IsTerminal(env.Stderr),
				Getenv: env.Getenv, Changed: cmd.Flags().Changed,
			})
			var ie *workload.Interrupted
			if errors.As(err, &ie) {
				return &ExitError{Code: ExitInterrupted, Msg: ie.Msg}
			}
			return err
		}
	}
	for _, sub := range c.Sub {
		cmd.AddCommand(familyCommand(env, sub))
	}
	return cmd
}
