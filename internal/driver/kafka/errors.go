package kafka

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// ErrorMessage turns a produce, fetch or admin error into a stable message
// for the errors-by-message breakdown: broker errors become their Kafka
// error code name (NOT_ENOUGH_REPLICAS, REQUEST_TIMED_OUT, ...), client
// errors a fixed phrase, and network errors lose their addresses and ports
// so that identical failures group together.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var ke *kerr.Error
	switch {
	case errors.Is(err, kgo.ErrRecordTimeout):
		// Wrapped as "timeout, last err: X" when a retry preceded it.
		if inner := lastErr(err); inner != nil {
			return "delivery timeout (last error " + ErrorMessage(inner) + ")"
		}
		return "delivery timeout"
	case errors.Is(err, kgo.ErrRecordRetries):
		return "retries exhausted"
	case errors.Is(err, kgo.ErrMaxBuffered):
		return "client buffer full"
	case errors.Is(err, kgo.ErrClientClosed):
		return "client closed"
	case errors.As(err, &ke):
		return ke.Message
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "broker connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "broker connection reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "broker closed the connection"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "broker i/o timeout"
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return "broker " + oe.Op + ": " + stripAddr(oe.Err.Error())
	}
	return stripAddr(err.Error())
}

// lastErr finds the error wrapped next to ErrRecordTimeout in
// fmt.Errorf("%w, last err: %w", ...).
func lastErr(err error) error {
	if m, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range m.Unwrap() {
			if e != kgo.ErrRecordTimeout {
				return e
			}
		}
	}
	return nil
}

// stripAddr drops host:port words, which would make every broker's error
// its own line.
func stripAddr(s string) string {
	f := strings.Fields(s)
	out := f[:0]
	for _, w := range f {
		if _, _, err := net.SplitHostPort(strings.TrimRight(w, ":,")); err == nil && strings.ContainsAny(w, "0123456789") {
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// Error is a produce or fetch failure whose message is the stable
// ErrorMessage form; Unwrap gives the original.
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// Wrap returns err with its stable message (nil stays nil).
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	return &Error{Msg: ErrorMessage(err), Err: err}
}
