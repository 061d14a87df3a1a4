package cli

import (
	"errors"
	"fmt"

	"github.com/stampede-bench/stampede/internal/workload"
)

// Exit codes, as k6 uses them.
const (
	ExitOK               = 0
	ExitRunError         = 1
	ExitUsage            = 2
	ExitThresholdsFailed = 99
)

// UsageError marks bad flags, arguments, URLs or config: the user gets one
// line and exit code 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// usagef builds a UsageError from a format string.
func usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// asUsage wraps err as a UsageError (nil stays nil).
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	var ue *UsageError
	if errors.As(err, &ue) {
		return err
	}
	return &UsageError{Err: err}
}

// ExitError carries a specific exit code with an optional message
// (an empty message prints nothing).
type ExitError struct {
	Code int
	Msg  string
}

func (e *ExitError) Error() string { return e.Msg }

// exitCode maps an error returned by a command to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	var ue *UsageError
	if errors.As(err, &ue) || errors.Is(err, workload.ErrUsage) {
		return ExitUsage
	}
	return ExitRunError
}
