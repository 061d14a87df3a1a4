// Package cli implements stampede's command line: one file per command, all
// wired here. Nothing in this package calls os.Exit or touches os.Std*; the
// process streams and environment come in through Env.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/dotenv"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/plugins"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Env is what a command may use from the process: streams and environment.
type Env struct {
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads an environment variable; defaults to os.Getenv.
	Getenv func(string) string
	// Catalog returns the workload families of one command (fresh values:
	// their options live in them); nil means the built-in families.
	Catalog func() *workload.Catalog
	// Outputs are the outputs --out NAME=ARG can name; nil means
	// stampede's own (outputs.New).
	Outputs *output.Registry
	// args is the command line (without the program name), recorded in
	// the options of a run.
	args []string
}

// catalog returns the families of one command.
func (e *Env) catalog() *workload.Catalog {
	if e.Catalog != nil {
		return e.Catalog()
	}
	return newCatalog()
}

// outputs returns the registry of the outputs --out can name.
func (e *Env) outputs() *output.Registry {
	if e.Outputs != nil {
		return e.Outputs
	}
	return newOutputs()
}

// Program is what a program puts around the command line: its workload
// families and its outputs.
type Program struct {
	// Catalog returns the workload families of one command (see
	// Env.Catalog); nil: the built-in families.
	Catalog func() *workload.Catalog
	// Outputs are the outputs --out can name (see Env.Outputs); nil:
	// stampede's own.
	Outputs *output.Registry
}

// MainProgram runs the stampede command line with args (without the
// program name), with the families and outputs of prog, and returns the
// process exit code. Errors reach the user as one line on stderr prefixed
// with "stampede: ".
func MainProgram(ctx context.Context, prog Program, args []string, stdout, stderr io.Writer) int {
	getenv, err := dotenv.Getenv(os.Getenv, ".env")
	if err != nil {
		fmt.Fprintf(stderr, "stampede: %s\n", oneLine(err))
		return ExitUsage
	}
	env := &Env{Stdout: stdout, Stderr: stderr, Getenv: getenv, Catalog: prog.Catalog, Outputs: prog.Outputs, args: args}
	root := newRootCmd(env)
	root.SetArgs(args)
	started := false
	root.PersistentPreRun = func(*cobra.Command, []string) { started = true }
	err = root.ExecuteContext(ctx)
	if err != nil && !started {
		// cobra failed before any command ran: unknown command, bad
		// arguments or flags. All of those are usage errors.
		err = asUsage(err)
	}
	err = interruptedAs130(ctx, err)
	if err != nil {
		if msg := oneLine(err); msg != "" {
			fmt.Fprintf(stderr, "stampede: %s\n", msg)
		}
	}
	return exitCode(err)
}

func newRootCmd(env *Env) *cobra.Command {
	root := &cobra.Command{
		Use:           "stampede",
		Short:         plugins.RootShort,
		Long:          plugins.RootLong,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return asUsage(err) })
	for _, add := range commands {
		root.AddCommand(add(env))
	}
	addFamilyCommands(env, root)
	refuseUnknownSubcommands(root)
	return root
}

// refuseUnknownSubcommands makes every command that only groups
// subcommands (gen, k8s, profile, ...) fail with a usage error on an unknown
// one, as the root does, instead of printing its help and exiting 0.
func refuseUnknownSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		refuseUnknownSubcommands(sub)
	}
	if c.HasParent() && c.HasSubCommands() && c.Run == nil && c.RunE == nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q for %q (see %s --help)", args[0], cmd.CommandPath(), cmd.CommandPath())
			}
			return cmd.Help()
		}
	}
}

// commands lists the constructors of every subcommand, one file each.
var commands = []func(*Env) *cobra.Command{
	newCompareCmd,
	newK8sCmd,
	newLabCmd,
	newMergeCmd,
	newSweepCmd,
	newProfileCmd,
	newReportCmd,
	newRunCmd,
	newScenariosCmd,
	newVersionCmd,
}

// oneLine flattens an error message to a single line. Joined errors
// (one per line) become "; "-separated, each said once: a client that
// tried a server twice reports the same failure twice.
func oneLine(err error) string {
	msg := err.Error()
	if usage.Is(err) && strings.HasPrefix(msg, "unknown command") && !strings.Contains(msg, "--help") {
		msg += " (see stampede --help)"
	}
	var parts []string
	seen := map[string]bool{}
	for _, line := range strings.Split(msg, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line != "" && !seen[line] {
			seen[line] = true
			parts = append(parts, line)
		}
	}
	out := ""
	for i, p := range parts {
		switch {
		case i == 0:
		case strings.HasSuffix(out, ":"):
			out += " "
		default:
			out += "; "
		}
		out += p
	}
	return out
}
