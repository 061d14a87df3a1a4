package cli

import (
	"testing"

	"github.com/spf13/pflag"
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
