package testenv

import (
	"fmt"
	"strings"
	"testing"
)

type fakeT struct{ fatal, skip string }

func (f *fakeT) Helper()                        {}
func (f *fakeT) Fatalf(format string, a ...any) { f.fatal = sprintf(format, a...) }
func (f *fakeT) Skipf(format string, a ...any)  { f.skip = sprintf(format, a...) }

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

// TestMissing: in CI (any non-empty CI, "true" as GitHub sets it, "1" or
// "yes" as others do) a missing dependency fails; elsewhere it skips.
func TestMissing(t *testing.T) {
	for _, c := range []struct {
		name, ci string
		fails    bool
	}{
		{"not CI", "", false},
		{"CI=true", "true", true},
		{"CI=1", "1", true},
		{"CI=yes", "yes", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f fakeT
			missing(&f, func(k string) string {
				if k == Env {
					return c.ci
				}
				return ""
			}, "no %s here", "kcat")
			if c.fails {
				if f.fatal == "" || f.skip != "" || !strings.Contains(f.fatal, "no kcat here") {
					t.Errorf("fatal %q skip %q, want a failure naming kcat", f.fatal, f.skip)
				}
			} else if f.skip != "no kcat here" || f.fatal != "" {
				t.Errorf("fatal %q skip %q, want a skip", f.fatal, f.skip)
			}
		})
	}
}
