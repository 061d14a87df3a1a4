// Package builtinopt holds the builtin family's options: the typed
// settings that package families/builtin names as builtin.Options.
package builtinopt

import (
	"time"

	"github.com/stampede-bench/stampede/internal/usage"
)

// Options are the builtin family's settings.
type Options struct {
	// Sleep is the pause of each builtin.Sleep iteration (default 1s;
	// flag --sleep).
	Sleep time.Duration
}

// DefaultOptions returns the defaults of a bare `stampede run`.
func DefaultOptions() Options {
	return Options{Sleep: time.Second}
}

// Validate returns the first problem of o as a usage error.
func (o *Options) Validate() error {
	if o.Sleep < 0 {
		return usage.Errorf("--sleep must not be negative")
	}
	return nil
}
