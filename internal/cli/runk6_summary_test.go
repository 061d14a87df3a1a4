package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// k6 v1's --summary-mode disabled prints no summary, as --no-summary; the
// result directory keeps summary.txt in the compact layout.
func TestSummaryModeDisabled(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "res")
	code, stdout, stderr := runMain(t, t.Context(), "run", "builtin.Noop", "-d", "1s", "--no-csv", "--quiet", "--summary-mode", "disabled", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing", stdout)
	}
	txt, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil || !strings.Contains(string(txt), "TOTAL RESULTS") {
		t.Errorf("summary.txt: %v\n%s", err, txt)
	}
}
