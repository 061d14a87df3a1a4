package termbar

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/progress"
)

func TestBarDrawsAndEndsTheLine(t *testing.T) {
	var buf bytes.Buffer
	f := New(&buf, "validating, loading", "rows")
	f(progress.Report{Total: 40})
	f(progress.Report{Done: 10, Total: 40})
	f(progress.Report{Done: 40, Total: 40, Final: true})
	out := buf.String()
	for _, want := range []string{"validating, loading", "40/40", "rows"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output %q lacks %q", out, want)
		}
	}
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("bar output %q does not end its line", out)
	}
}

// TestUnknownTotal: without a Total (the nGQL loader's reports) the count
// and rate are drawn without a bar, and the Final report shows the last
// count and ends the line.
func TestUnknownTotal(t *testing.T) {
	var buf bytes.Buffer
	f := New(&buf, "loading", "rows")
	f(progress.Report{Done: 10})
	f(progress.Report{Done: 900})
	f(progress.Report{Done: 1234, Final: true})
	out := buf.String()
	for _, want := range []string{"loading", "1234/-", "rows/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("output %q lacks %q", out, want)
		}
	}
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("output %q does not end its line", out)
	}
}

func TestSpinnerCountsAndClears(t *testing.T) {
	var buf bytes.Buffer
	set, finish := Spinner(&buf, "gen ldbc sf 1", "rows")
	set(5)
	set(4321)
	finish()
	out := buf.String()
	for _, want := range []string{"gen ldbc sf 1", "5/-", "rows/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("spinner output %q lacks %q", out, want)
		}
	}
	if !strings.HasSuffix(out, "\r") {
		t.Errorf("spinner output %q does not clear its line", out)
	}
}
