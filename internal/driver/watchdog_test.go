package driver

import (
	"testing"
	"time"
)

func TestTickFor(t *testing.T) {
	tests := []struct{ timeout, want time.Duration }{
		{0, MaxTick},
		{time.Minute, MaxTick},
		{100 * time.Millisecond, 5 * time.Millisecond},
		{5 * time.Millisecond, MinTick},
	}
	for _, tc := range tests {
		if got := TickFor(tc.timeout); got != tc.want {
			t.Errorf("TickFor(%v) = %v, want %v", tc.timeout, got, tc.want)
		}
	}
}
