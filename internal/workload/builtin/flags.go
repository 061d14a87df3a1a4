package builtin

import "github.com/stampede-bench/stampede/flags"

// BindFlags implements workload.FlagBinder.
func (f *Family) BindFlags(fs flags.Set) {
	fs.DurationVar(&f.opts.Sleep, "sleep", f.opts.Sleep, "pause of each builtin.Sleep iteration")
}
