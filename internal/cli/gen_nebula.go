package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/workload/ldbc/ngqlload"
)

// genNebulaOptions: `stampede gen ldbc --nebula-importer FILE`.
type genNebulaOptions struct {
	importer string
	space    string
}

func addGenNebulaFlags(f *pflag.FlagSet, o *genNebulaOptions) {
	f.StringVar(&o.importer, "nebula-importer", "", "also write a nebula-importer YAML configuration for the data set to FILE (must not exist)")
	f.StringVar(&o.space, "nebula-space", "ldbc", "NebulaGraph space named in the --nebula-importer configuration")
}

func (o *genNebulaOptions) check() error {
	if o.importer == "" {
		return nil
	}
	if _, err := os.Stat(o.importer); err == nil {
		return usagef("gen ldbc: --nebula-importer %s exists; not overwriting it", o.importer)
	}
	if o.space == "" || strings.ContainsAny(o.space, "`\"' ;/") {
		return usagef("gen ldbc: --nebula-space %q: want one name", o.space)
	}
	return nil
}

func (o *genNebulaOptions) write(env *Env, dataDir string) error {
	if o.importer == "" {
		return nil
	}
	f, err := os.OpenFile(o.importer, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("gen ldbc: %w", err)
	}
	if err := ngqlload.WriteImporterConfig(f, dataDir, o.space); err != nil {
		f.Close()
		return fmt.Errorf("gen ldbc: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("gen ldbc: %w", err)
	}
	fmt.Fprintf(env.Stdout, "nebula-importer configuration written to %s (space %s)\n", o.importer, o.space)
	return nil
}
