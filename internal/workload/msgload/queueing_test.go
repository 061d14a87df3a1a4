package msgload

import (
	"strings"
	"testing"
	"time"
)

func TestQueueingLine(t *testing.T) {
	for _, tc := range []struct {
		name     string
		inflight int
		tput     float64
		idle     time.Duration
		want     string
	}{
		{"50 VUs × 500: the queue", 25000, 40000, time.Millisecond, "client-side queueing dominates the publish latency (625× the fastest PubAck); lower -u or --nats-async-window"},
		{"4 sync VUs: the broker", 4, 4000, 800 * time.Microsecond, "a mean publish latency of about 1ms (Little's law); the fastest PubAck of the run (no queue ahead of it) took 800µs: the publish latency is mostly the broker's"},
		{"no probe", 4, 4000, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := QueueingLine(tc.inflight, tc.tput, tc.idle, "PubAck", "--nats-async-window")
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("note %q, want %q", got, tc.want)
			}
		})
	}
}
