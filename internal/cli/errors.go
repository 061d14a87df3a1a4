package cli

import (
	"errors"

	"github.com/stampede-bench/stampede/internal/usage"
)

// Exit codes, as k6 uses them.
const (
	ExitOK               = 0
	ExitRunError         = 1
	ExitUsage            = 2
	ExitThresholdsFailed = 99
)

// usagef builds a usage error (exit code 2) from a format string.
func usagef(format string, args ...any) error { return usage.Errorf(format, args...) }

// asUsage marks err as a usage error (nil stays nil).
func asUsage(err error) error { return usage.Wrap(err) }

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
	if usage.Is(err) {
		return ExitUsage
	}
	return ExitRunError
}
