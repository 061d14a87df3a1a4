package nats

import (
	"context"
	"errors"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ErrorMessage is a stable one-line form of a NATS or JetStream error,
// without subjects, ids or addresses, so that identical failures group
// together in the errors breakdown.
func ErrorMessage(err error) string {
	var apiErr *jetstream.APIError
	switch {
	case err == nil:
		return ""
	case errors.Is(err, jetstream.ErrNoStreamResponse), errors.Is(err, nats.ErrNoResponders):
		return "no responders: the stream has no leader (lost quorum or not yet elected)"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout):
		return "timeout waiting for the publish acknowledgement"
	case errors.Is(err, jetstream.ErrTooManyStalledMsgs):
		return "async publish window stalled: too many unacknowledged messages"
	case errors.Is(err, nats.ErrConnectionClosed):
		return "connection closed"
	case errors.Is(err, nats.ErrNoServers):
		return "no servers available"
	case errors.Is(err, nats.ErrAuthorization):
		return "authorization violation"
	case errors.As(err, &apiErr):
		return "jetstream: " + apiErr.Description
	}
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "nats: ")
	if i := strings.Index(msg, " on connection"); i > 0 {
		msg = msg[:i]
	}
	return msg
}

// Error is a failure whose message is ErrorMessage's; Unwrap gives the
// original.
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
