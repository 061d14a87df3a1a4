package run

import (
	"errors"
	"fmt"

	"github.com/stampede-bench/stampede/internal/workload"
)

// usagef returns a usage error: bad input, which the command line reports
// in one line with exit code 2 (errors.Is(err, workload.ErrUsage)).
func usagef(format string, args ...any) error {
	return workload.Usagef(format, args...)
}

// asUsage marks err as a usage error (nil stays nil).
func asUsage(err error) error {
	if err == nil || errors.Is(err, workload.ErrUsage) {
		return err
	}
	return &usageErr{err}
}

type usageErr struct{ err error }

func (e *usageErr) Error() string        { return e.err.Error() }
func (e *usageErr) Unwrap() error        { return e.err }
func (e *usageErr) Is(target error) bool { return target == workload.ErrUsage }

// InterruptedError is returned when the context ended a run before its
// engine started (while preparing the target or waiting for StartAt). A
// run interrupted while measuring returns a Result with Interrupted set
// instead, since what was measured is kept.
type InterruptedError struct{ Msg string }

func (e *InterruptedError) Error() string { return e.Msg }

func interrupted(format string, args ...any) error {
	return &InterruptedError{Msg: fmt.Sprintf(format, args...)}
}
