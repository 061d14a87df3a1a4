package cputime

import (
	"testing"
	"time"
)

// Spinning for 50 ms of wall time shows as CPU time, and the figure only
// grows.
func TestProcessCountsWork(t *testing.T) {
	before := Process()
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
	}
	after := Process()
	if d := after - before; d < 20*time.Millisecond {
		t.Fatalf("50 ms of spinning counted as %v of CPU", d)
	}
}
