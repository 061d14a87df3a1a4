package driver

import (
	"errors"
	"net"
	"strings"
	"syscall"
)

// IsConnError reports whether err says the target could not be reached or
// dropped the connection (refused, reset, unreachable, failed dial), as
// opposed to an error the target answered with. Errors whose chain was
// flattened to text are recognised by their message.
func IsConnError(err error) bool {
	if err == nil {
		return false
	}
	for _, e := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED, syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.EPIPE} {
		if errors.Is(err, e) {
			return true
		}
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, s := range []string{"connection refused", "connection reset", "broken pipe", "no route to host", "network is unreachable", "failed to connect", "server closed the connection", "unexpected eof"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
