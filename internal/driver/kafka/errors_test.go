package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"broker code", kerr.NotEnoughReplicas, "NOT_ENOUGH_REPLICAS"},
		{"wrapped broker code", fmt.Errorf("produce: %w", kerr.RequestTimedOut), "REQUEST_TIMED_OUT"},
		{"timeout", kgo.ErrRecordTimeout, "delivery timeout"},
		{"timeout with last", fmt.Errorf("%w, last err: %w", kgo.ErrRecordTimeout, kerr.NotLeaderForPartition), "delivery timeout (last error NOT_LEADER_FOR_PARTITION)"},
		{"retries", kgo.ErrRecordRetries, "retries exhausted"},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: &net.AddrError{Err: "x"}}, "broker dial: x"},
		{"refused errno", fmt.Errorf("dial tcp 127.0.0.1:4567: %w", syscall.ECONNREFUSED), "broker connection refused"},
		{"eof", fmt.Errorf("read: %w", io.EOF), "broker closed the connection"},
		{"deadline", context.DeadlineExceeded, "timeout"},
		{"address stripped", errors.New("unable to dial 10.0.0.1:9092 now"), "unable to dial now"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ErrorMessage(tc.err); got != tc.want {
				t.Errorf("ErrorMessage(%v) = %q, want %q", tc.err, got, tc.want)
			}
		})
	}
}
