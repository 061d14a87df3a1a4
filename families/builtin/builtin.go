// Package builtin is the builtin family (builtin.Noop, builtin.Sleep):
// iterations that measure the harness itself.
//
// Build it from typed options without any flag library: start from
// DefaultOptions, change fields (each documents its unit, default and run
// flag), Validate, then name New(opts) in a stampede.Plan or a
// stampede.NewCatalog. A program that imports this package links this
// family and its drivers only. The family binds its run flags when a
// command line (cmdline.Main) is built around it; its options are the
// flags' defaults.
package builtin

import (
	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/families/builtin/builtinopt"
	"github.com/stampede-bench/stampede/internal/workload/builtin"
)

// Options are the builtin family's options (builtin.Noop,
// builtin.Sleep). Fields (default; run flag):
//
//	Sleep time.Duration // the pause of each builtin.Sleep iteration (1s; --sleep)
type Options = builtinopt.Options

// DefaultOptions returns the builtin family's defaults.
func DefaultOptions() Options { return builtinopt.DefaultOptions() }

// New returns the builtin family with options o.
func New(o Options) stampede.Family { return builtin.New(o) }
