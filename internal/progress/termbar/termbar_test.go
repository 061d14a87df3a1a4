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
