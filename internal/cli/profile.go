package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/profile"
)

// defaultPGO is where profile merge writes by default: the name go build
// picks up from a main package's directory (-pgo=auto).
const defaultPGO = "default.pgo"

func newProfileCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "Merge CPU profiles for profile-guided builds (Go PGO, AutoFDO)",
		Long: `Profiles recorded while scenarios run (run --profile pprof=URL or
--profile cmd='perf record ...') are merged into one for a profile-guided
rebuild of the target: go build -pgo=default.pgo. See docs/profiles.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newProfileMergeCmd(env))
	return cmd
}

func newProfileMergeCmd(env *Env) *cobra.Command {
	out := defaultPGO
	cmd := &cobra.Command{
		Use:   "merge DIR_OR_FILE... [-o default.pgo]",
		Short: "Merge pprof profiles (files, or directories of *.pprof and *.pb.gz) into one",
		Example: `  stampede profile merge results/profiles -o default.pgo
  stampede profile merge a.cpu.pprof b.cpu.pprof -o merged.pb.gz`,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("profile merge: give at least one profile file or directory")
			}
			if out == "" {
				return usagef("profile merge: -o must name the output file")
			}
			m, err := profile.MergeFiles(out, args...)
			if err != nil {
				return mergeErr(err)
			}
			fmt.Fprintf(env.Stdout, "merged %d profiles (%d %s) into %s\n", m.Files, m.Total, m.Unit, out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", defaultPGO, "merged profile to write (gzipped pprof, usable as go build -pgo=FILE)")
	return cmd
}

// mergeErr makes bad inputs usage errors (exit 2) and leaves the rest run
// errors (exit 1).
func mergeErr(err error) error {
	err = fmt.Errorf("profile merge: %w", err)
	if errors.Is(err, profile.ErrBadInput) {
		return asUsage(err)
	}
	return err
}
