package driver

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// TimeoutError is an operation that exceeded Options.Timeout. Its message
// is stable so that timeouts group together in the errors breakdown.
type TimeoutError struct{ After time.Duration }

func (e *TimeoutError) Error() string { return fmt.Sprintf("timeout after %v", e.After) }

// OpContext bounds one operation by timeout (none when 0). Pass the
// returned context to the client and both contexts to OpError.
func OpContext(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		return context.WithTimeout(ctx, timeout)
	}
	return ctx, func() {}
}

// OpError is the error to report for err from an operation run with
// op = OpContext(run, timeout): the run's own cancellation unchanged (the
// engine's stop), a TimeoutError when the operation's deadline passed, else
// err.
func OpError(run, op context.Context, timeout time.Duration, err error) error {
	if run.Err() != nil {
		return run.Err()
	}
	if errors.Is(op.Err(), context.DeadlineExceeded) {
		return &TimeoutError{After: timeout}
	}
	return err
}
