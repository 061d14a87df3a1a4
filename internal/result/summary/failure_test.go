package summary

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// TestFailureHeadline: a scenario whose verdict is not "passed" starts the
// summary with it — FAILED when no request succeeded, DEGRADED above 1%
// errors — and its top error in full — a PostgreSQL restart's message,
// URL first, used to be cut before its cause.
func TestFailureHeadline(t *testing.T) {
	const cause = "postgres postgres://user:xxxxx@127.0.0.1:5432/stampede_db?sslmode=disable: failed to connect to `user=user database=stampede_db`: 127.0.0.1:5432 (127.0.0.1): dial error: dial tcp 127.0.0.1:5432: connect: connection refused"
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		requests int64
		errors   int64
		head     string // the headline's start; "" for none
	}{
		{"100% errors", 10000, 10000, "✗ FAILED go.Go1Step: no successful operation"},
		{"99.56% errors", 10000, 9956, "! DEGRADED go.Go1Step: 99.56% of 10000 requests failed"},
		{"1% errors is not a failure", 10000, 100, ""},
		{"1.01% errors", 10000, 101, "! DEGRADED go.Go1Step: 1.01% of 10000 requests failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := &metrics.ScenarioSnapshot{
				Name: "go.Go1Step", Start: start, End: start.Add(10 * time.Second),
				Counters: map[string]int64{metrics.Requests: tc.requests, metrics.Iterations: tc.requests, metrics.Errors: tc.errors},
				Errors:   map[string]int64{cause: tc.errors},
			}
			snap := &metrics.Snapshot{Start: sc.Start, End: sc.End, Scenarios: []*metrics.ScenarioSnapshot{sc}}
			var buf bytes.Buffer
			if err := WriteConsole(&buf, snap, ConsoleOptions{}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			first := strings.TrimSpace(out)
			headed := strings.HasPrefix(first, "✗ FAILED") || strings.HasPrefix(first, "! DEGRADED")
			if tc.head == "" && headed || tc.head != "" && !strings.HasPrefix(first, tc.head) {
				t.Errorf("headline, want %q:\n%s", tc.head, out)
			}
			// The whole cause is there, wrapped (joined back without the
			// line breaks and indentation).
			flat := strings.Join(strings.Fields(out), " ")
			if !strings.Contains(flat, "connect: connection refused") || strings.Contains(out, "sslmo…") {
				t.Errorf("the cause was cut:\n%s", out)
			}
			for _, l := range strings.Split(out, "\n") {
				if w := width(l); w > DefaultWidth {
					t.Errorf("line of %d columns: %q", w, l)
				}
			}
		})
	}
}
