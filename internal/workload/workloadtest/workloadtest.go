// Package workloadtest holds test helpers shared by the workload
// families' option tests.
package workloadtest

import (
	"errors"
	"testing"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/flags"
	"github.com/stampede-bench/stampede/internal/usage"
)

// Case is one row of a Validate table: Edit changes the default options,
// Want is the expected usage error's whole message ("" for none). It is
// an alias of an unnamed struct, so tables may list rows without keys.
type Case[O any] = struct {
	Name string
	Edit func(*O)
	Want string
}

// Validate runs the cases: each edits defaults() and checks validate's
// error, which must be a usage error (usage.ErrBadInput) with exactly the
// message Want.
func Validate[O any](t *testing.T, defaults func() O, validate func(*O) error, cases []Case[O]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			o := defaults()
			tc.Edit(&o)
			err := validate(&o)
			switch {
			case tc.Want == "" && err != nil:
				t.Errorf("Validate() = %v", err)
			case tc.Want != "" && (err == nil || err.Error() != tc.Want || !errors.Is(err, usage.ErrBadInput)):
				t.Errorf("Validate() = %v, want usage error %q", err, tc.Want)
			}
		})
	}
}

// FlagDefaults binds flags on a fresh flag set and checks the default
// each named flag shows in --help.
func FlagDefaults(t *testing.T, bind func(flags.Set), want map[string]string) {
	t.Helper()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	bind(fs)
	for name, def := range want {
		if fl := fs.Lookup(name); fl == nil {
			t.Errorf("no flag --%s", name)
		} else if fl.DefValue != def {
			t.Errorf("--%s default %q, want %q", name, fl.DefValue, def)
		}
	}
}
