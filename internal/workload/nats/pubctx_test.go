package nats

import (
	"context"
	"errors"
	"testing"
	"time"
)

// waitDone waits up to a second for c to be done and returns its error
// (nil when it was not done).
func waitDone(c context.Context, within time.Duration) error {
	select {
	case <-c.Done():
		return c.Err()
	case <-time.After(within):
		return nil
	}
}

func TestPubCtx(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		cancel  bool // cancel the parent while armed
		want    error
	}{
		{"answered in time", time.Hour, false, nil},
		{"timeout", 20 * time.Millisecond, false, context.DeadlineExceeded},
		{"run stopped", time.Hour, true, context.Canceled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent, cancel := context.WithCancel(context.Background())
			defer cancel()
			c := newPubCtx()
			defer c.close()
			c.arm(parent, tc.timeout)
			if d, ok := c.Deadline(); !ok || time.Until(d) > tc.timeout {
				t.Errorf("deadline %v, %v: want within %s", d, ok, tc.timeout)
			}
			if tc.cancel {
				cancel()
			}
			if err := waitDone(c, 200*time.Millisecond); !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
				t.Fatalf("done with %v, want %v", err, tc.want)
			}
			c.disarm()
			// The next publish starts afresh, unless the run stopped.
			c.arm(parent, time.Hour)
			want := error(nil)
			if tc.cancel {
				want = context.Canceled
			}
			if err := waitDone(c, 50*time.Millisecond); err != want {
				t.Fatalf("next publish: done with %v, want %v", err, want)
			}
			c.disarm()
		})
	}
}

// TestPubCtxLateTimer: a timer that fires for a disarmed publish does not
// end the next one.
func TestPubCtxLateTimer(t *testing.T) {
	c := newPubCtx()
	defer c.close()
	c.arm(context.Background(), time.Hour)
	c.disarm()
	c.arm(context.Background(), time.Hour)
	c.expire() // as if the first publish's timer ran now
	if err := waitDone(c, 20*time.Millisecond); err != nil {
		t.Fatalf("a stale timer ended the publish: %v", err)
	}
	c.disarm()
	c.end(context.DeadlineExceeded) // disarmed: no effect
	if c.Err() != nil {
		t.Fatal("a disarmed context was ended")
	}
}

// BenchmarkPubCtx is the bound of one sync publish: arm and disarm, a
// publish answered in time (against context.WithTimeout per publish).
func BenchmarkPubCtx(b *testing.B) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.Run("pubCtx", func(b *testing.B) {
		c := newPubCtx()
		defer c.close()
		b.ReportAllocs()
		for b.Loop() {
			c.arm(parent, 5*time.Second)
			_ = c.Done()
			c.disarm()
		}
	})
	b.Run("WithTimeout", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, cf := context.WithTimeout(parent, 5*time.Second)
			_ = c.Done()
			cf()
		}
	})
}
