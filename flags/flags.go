// Package flags is how a workload family offers its options as run flags
// without depending on a flag library: the family implements Binder, and
// the command line hands it a Set (its own flag set, github.com/spf13/pflag's
// *FlagSet, implements Set; so does any type with these methods, which a
// test may use). The package depends on nothing of stampede.
package flags

import "time"

// Set is where a family binds its options. Each method registers one flag
// named name (without "--"), shown with usage in `stampede run --help`,
// whose parsed value is stored in *p; value is its default, by convention
// the family's current option value.
type Set interface {
	BoolVar(p *bool, name string, value bool, usage string)
	// BoolVarP is BoolVar with a one-letter shorthand (-q for --quiet).
	BoolVarP(p *bool, name, shorthand string, value bool, usage string)
	IntVar(p *int, name string, value int, usage string)
	Int16Var(p *int16, name string, value int16, usage string)
	Int32Var(p *int32, name string, value int32, usage string)
	Int64Var(p *int64, name string, value int64, usage string)
	Float64Var(p *float64, name string, value float64, usage string)
	StringVar(p *string, name string, value string, usage string)
	DurationVar(p *time.Duration, name string, value time.Duration, usage string)
	// StringArrayVar registers a repeatable flag: each occurrence adds
	// one value, taken whole (commas are not separators).
	StringArrayVar(p *[]string, name string, value []string, usage string)
	// Changed reports whether the user gave flag name (after parsing;
	// false before).
	Changed(name string) bool
}

// Binder is implemented by families whose options are run flags.
// BindFlags registers the family's options on fs with the family's
// current option values as defaults (e.g. fs.IntVar(&f.opts.Size,
// "echo-size", f.opts.Size, "bytes per echo")); the values the command
// line parses into fs become the family's options before Open. Validate
// them at the start of Open. A flag name the run command or another
// family of the catalog already has is an error that stops every run,
// naming both, unless every family binding it lists it in SharedFlags
// (Sharer). Prefix your flags with the family's name.
type Binder interface {
	BindFlags(fs Set)
}

// Sharer is implemented by Binder families that share some flags with
// other families: SharedFlags names the flags (without "--") that one
// command-line flag sets for every family binding it; each must be bound
// with the same type and default by all of them.
type Sharer interface {
	SharedFlags() []string
}
