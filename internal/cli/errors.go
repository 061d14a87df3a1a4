package cli

import (
	"context"
	"errors"
	"strings"

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

// interruptedAs130 makes every command exit 130 when Ctrl+C (the end of
// ctx) ended it with an error: what failed is the interruption, whatever
// the command made of it (a cancelled read, a refused connection).
func interruptedAs130(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	if c := exitCode(err); c != ExitRunError && c != ExitUsage {
		return err
	}
	msg := oneLine(err)
	if !strings.Contains(msg, "interrupted") {
		msg = "interrupted: " + msg
	}
	return &ExitError{Code: ExitInterrupted, Msg: msg}
}
