package liveline

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// TestProgressLineKeepsUnits: the status line fits 79 columns and never
// cuts a figure's unit (it used to print "p95 8.03m" and "p95 118.7").
func TestProgressLineKeepsUnits(t *testing.T) {
	p := &progress{specs: []engine.Spec{{Name: "find_path.FindShortestPath", Config: engine.Config{Executor: engine.ConstantVUs, VUs: 1000, Duration: 10 * time.Minute}}}}
	for _, tc := range []struct {
		l    metrics.LiveStats
		want string
	}{
		{metrics.LiveStats{VUs: 1000, Iterations: 123_456_789, LastP95: 8_030_000, Errors: 12345}, "p95 8.03s    err 12345"},
		{metrics.LiveStats{VUs: 50, Iterations: 99_999, LastP95: 118_700, Errors: 0}, "p95 118.70ms err 0"},
		{metrics.LiveStats{VUs: 50, Iterations: 10, LastP95: 215}, "p95 215µs"},
	} {
		line := p.line(progressScenario{idx: 0}, tc.l, 65*time.Second, 123456)
		if !strings.Contains(line, tc.want) || utf8.RuneCountInString(line) > 79 {
			t.Errorf("line %q (%d columns), want %q within 79", line, utf8.RuneCountInString(line), tc.want)
		}
		if !strings.HasPrefix(line, "find_path.") {
			t.Errorf("line %q lost the scenario name", line)
		}
	}
}
