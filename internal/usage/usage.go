// Package usage holds the one error type stampede uses for bad input: a
// flag, argument, URL, config value or data set the user can fix. The CLI
// prints such an error as one line and exits with code 2; every other error
// is a run error (exit code 1).
//
// A package marks bad input with Errorf or Wrap; a caller asks with Is (or
// errors.Is(err, ErrBadInput), or errors.As with a *Error). The marker
// survives wrapping with fmt.Errorf("...: %w", err), and it never changes the
// message: Error returns the wrapped error's text unchanged.
//
// The package is a leaf: it imports only the standard library, so any layer
// may use it.
package usage

import (
	"errors"
	"fmt"
)

// ErrBadInput is the errors.Is target that matches every usage error:
// errors.Is(err, ErrBadInput) reports the same as Is(err).
var ErrBadInput = errors.New("bad usage")

// Error marks Err as bad input. Its message is Err's message.
type Error struct{ Err error }

// Error returns the message of the marked error, unchanged.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the marked error, so errors.Is and errors.As see through
// the marker to the cause (a sentinel such as loader.ErrLoaded).
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrBadInput) true for every usage error.
func (e *Error) Is(target error) bool { return target == ErrBadInput }

// Errorf formats like fmt.Errorf (%w wraps) and marks the result as bad
// input.
func Errorf(format string, args ...any) error {
	return &Error{Err: fmt.Errorf(format, args...)}
}

// Wrap marks err as bad input. nil stays nil, and an error that already is a
// usage error is returned as it is.
func Wrap(err error) error {
	if err == nil || Is(err) {
		return err
	}
	return &Error{Err: err}
}

// Is reports whether err, or any error it wraps, is a usage error.
func Is(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
