package builtin

import "github.com/stampede-bench/stampede/families/builtin/builtinopt"

// Options are the builtin family's settings, declared in the public
// package builtinopt.
type Options = builtinopt.Options

// DefaultOptions returns the defaults of a bare `stampede run`.
func DefaultOptions() Options { return builtinopt.DefaultOptions() }
