package builtin

import "github.com/spf13/pflag"

// BindFlags implements workload.FlagBinder.
func (f *Family) BindFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&f.opts.Sleep, "sleep", f.opts.Sleep, "pause of each builtin.Sleep iteration")
}
