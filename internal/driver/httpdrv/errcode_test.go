package httpdrv

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestErrorCode(t *testing.T) {
	tests := []struct {
		name   string
		status int
		err    error
		want   int
	}{
		{"ok", 200, nil, 0},
		{"redirect", 302, nil, 0},
		{"HTTP 500", 500, &Status{Code: 500}, 1500},
		{"HTTP 404", 404, &Status{Code: 404}, 1404},
		{"plain dial refused", 0, fmt.Errorf("connect 127.0.0.1:1: %w", syscall.ECONNREFUSED), 1212},
		{"net dial refused", 0, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, 1212},
		{"dial timeout", 0, fmt.Errorf("connect 10.0.0.1:80: %w", os.ErrDeadlineExceeded), 1211},
		{"dial other", 0, fmt.Errorf("connect h:80: %w", syscall.ENETUNREACH), 1210},
		{"reset", 0, &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, 1220},
		{"broken pipe", 0, &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.EPIPE)}, 1201},
		{"read timeout", 0, &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, 1050},
		{"context deadline", 0, context.DeadlineExceeded, 1050},
		{"no such host", 0, &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}, 1101},
		{"other", 0, errors.New("malformed response"), 1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ErrorCode(tc.status, tc.err); got != tc.want {
				t.Errorf("ErrorCode(%d, %v) = %d, want %d", tc.status, tc.err, got, tc.want)
			}
		})
	}
}

// TestErrorCodeRefusedForReal dials a closed port with the plain client.
func TestErrorCodeRefusedForReal(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := &conn{d: &Driver{addr: addr}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err = c.dial(ctx)
	if got := ErrorCode(0, err); got != 1212 {
		t.Errorf("ErrorCode(%v) = %d, want 1212", err, got)
	}
}
