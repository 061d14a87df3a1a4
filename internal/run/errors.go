package run

import (
	"fmt"

	"github.com/stampede-bench/stampede/internal/usage"
)

// usagef returns a usage error: bad input, which the command line reports
// in one line with exit code 2 (usage.Is).
func usagef(format string, args ...any) error { return usage.Errorf(format, args...) }

// asUsage marks err as a usage error (nil stays nil).
func asUsage(err error) error { return usage.Wrap(err) }

// InterruptedError is returned when the context ended a run before its
// engine started (while preparing the target or waiting for StartAt). A
// run interrupted while measuring returns a Result with Interrupted set
// instead, since what was measured is kept.
type InterruptedError struct{ Msg string }

func (e *InterruptedError) Error() string { return e.Msg }

func interrupted(format string, args ...any) error {
	return &InterruptedError{Msg: fmt.Sprintf(format, args...)}
}
