package workload

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/flags"

	"github.com/spf13/pflag"
	"github.com/stampede-bench/stampede/internal/usage"
)

// FlagBinder and FlagSharer are package flags' Binder and Sharer: a
// family whose options are run flags binds them on a flags.Set.
type (
	FlagBinder = flags.Binder
	FlagSharer = flags.Sharer
)

// BindFlags binds the flags of every family implementing FlagBinder on fs,
// in catalog order, and returns the families binding each flag it added
// (one, or several in catalog order for a shared flag). A flag name already on fs, or bound by
// two families that do not both declare it shared (FlagSharer), with the
// same type and default, is an error: no family's flag is silently
// dropped. On error fs is unchanged.
func (c *Catalog) BindFlags(fs *pflag.FlagSet) (map[string][]string, error) {
	type bound struct {
		flag     *pflag.Flag
		family   string
		shared   bool
		values   []pflag.Value
		families []string
	}
	byName := map[string]*bound{}
	var order []string
	shorthands := map[string]string{}
	for _, fam := range c.families {
		b, ok := fam.(FlagBinder)
		if !ok {
			continue
		}
		own := pflag.NewFlagSet(fam.Name(), pflag.ContinueOnError)
		b.BindFlags(own)
		shared := map[string]bool{}
		if s, ok := fam.(FlagSharer); ok {
			for _, n := range s.SharedFlags() {
				shared[n] = true
			}
		}
		var err error
		own.VisitAll(func(fl *pflag.Flag) {
			if err != nil {
				return
			}
			if fs.Lookup(fl.Name) != nil {
				err = fmt.Errorf("flag --%s of the %s family is already a flag of the command", fl.Name, fam.Name())
				return
			}
			if fl.Shorthand != "" {
				if fs.ShorthandLookup(fl.Shorthand) != nil {
					err = fmt.Errorf("flag -%s (--%s) of the %s family is already a flag of the command", fl.Shorthand, fl.Name, fam.Name())
					return
				}
				if other, taken := shorthands[fl.Shorthand]; taken && other != fl.Name {
					err = fmt.Errorf("flag -%s is bound as --%s and --%s", fl.Shorthand, other, fl.Name)
					return
				}
				shorthands[fl.Shorthand] = fl.Name
			}
			prev, dup := byName[fl.Name]
			if !dup {
				byName[fl.Name] = &bound{flag: fl, family: fam.Name(), shared: shared[fl.Name], values: []pflag.Value{fl.Value}, families: []string{fam.Name()}}
				order = append(order, fl.Name)
				return
			}
			switch {
			case !prev.shared || !shared[fl.Name]:
				err = fmt.Errorf("flag --%s is bound by both the %s and the %s family; rename one, or declare it shared in both (workload.FlagSharer)", fl.Name, prev.family, fam.Name())
			case prev.flag.Value.Type() != fl.Value.Type() || prev.flag.DefValue != fl.DefValue:
				err = fmt.Errorf("shared flag --%s: the %s family binds it as %s (default %q), the %s family as %s (default %q)",
					fl.Name, prev.family, prev.flag.Value.Type(), prev.flag.DefValue, fam.Name(), fl.Value.Type(), fl.DefValue)
			default:
				prev.values = append(prev.values, fl.Value)
				prev.families = append(prev.families, fam.Name())
			}
		})
		if err != nil {
			return nil, err
		}
	}
	out := make(map[string][]string, len(order))
	for _, n := range order {
		b := byName[n]
		if len(b.values) > 1 {
			b.flag.Value = &sharedValue{Value: b.values[0], more: b.values[1:]}
		}
		fs.AddFlag(b.flag)
		out[n] = b.families
	}
	return out, nil
}

// sharedValue is a flag value set into every family sharing the flag.
type sharedValue struct {
	pflag.Value
	more []pflag.Value
}

func (s *sharedValue) Set(v string) error {
	if err := s.Value.Set(v); err != nil {
		return err
	}
	for _, m := range s.more {
		if err := m.Set(v); err != nil {
			return err
		}
	}
	return nil
}

// CheckFlagFamilies refuses a workload flag given on the command line when
// no family of running binds it (families: the families of each flag, as
// Catalog.BindFlags returns them): --kill-node (nats) with only kafka.*
// scenarios would otherwise be ignored silently, and the run would not
// test what was asked. Flags set from the environment (STAMPEDE_*) or a
// config file's options are not refused: they are often shared by runs of
// several families.
func CheckFlagFamilies(families map[string][]string, changed func(string) bool, commandLine []string, running []string) error {
	runs := map[string]bool{}
	for _, f := range running {
		runs[f] = true
	}
	var names []string
	for name := range families {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fams := families[name]
		if !changed(name) || !onCommandLine(commandLine, name) || slices.ContainsFunc(fams, func(f string) bool { return runs[f] }) {
			continue
		}
		var run []string
		for f := range runs {
			run = append(run, f)
		}
		sort.Strings(run)
		return usage.Errorf("--%s is a flag of the %s family, and no scenario of it runs (families run: %s): it would be ignored; drop it or add a %s.* scenario",
			name, strings.Join(fams, "/"), strings.Join(run, ", "), fams[0])
	}
	return nil
}

// onCommandLine reports whether --name is among args (before a "--").
func onCommandLine(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--"+name || strings.HasPrefix(a, "--"+name+"=") {
			return true
		}
	}
	return false
}
