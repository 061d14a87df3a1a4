package cli

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/builtin"
)

// TestCatalogFlagsAreDistinct: the built-in families bind their flags
// without a clash between them or with the run command's own flags.
func TestCatalogFlagsAreDistinct(t *testing.T) {
	env := &Env{}
	run := newRunCmd(env)
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	families, err := newCatalog().BindFlags(fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(families) < 50 {
		t.Fatalf("only %d family flags bound", len(families))
	}
	for name, fam := range families {
		if fl := run.Flags().Lookup(name); fl == nil {
			t.Errorf("--%s (%s) is not a run flag", name, fam)
		}
	}
	// Binding the catalog on the run command's flags again clashes with
	// every flag: the error names one.
	if _, err := newCatalog().BindFlags(run.Flags()); err == nil {
		t.Error("binding the families twice was not refused")
	}
}

// TestFlagBoundTwice: a catalog where two families bind the same flag
// (here two builtin families, both --sleep) cannot run: registering the
// run flags keeps which flag, and the plan fails with it, instead of one
// family's flag being ignored.
func TestFlagBoundTwice(t *testing.T) {
	catalog := workload.NewCatalog(builtin.New(builtin.DefaultOptions()), builtin.New(builtin.DefaultOptions()))
	f := &runFlags{}
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	f.register(fs, catalog)
	err := f.bindErr
	if err == nil || !strings.Contains(err.Error(), "flag --sleep is bound by both the builtin and the builtin family") {
		t.Fatalf("err = %v", err)
	}
}
