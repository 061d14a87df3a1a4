package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

// The main job with no arguments but a tiny scale: generate, load into the
// embedded SQLite, run the five default graph scenarios, print the
// summaries and the overview. Run twice: the data and the database are
// reused.
func TestRunGraphDefaultEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end")
	}
	dataDir := filepath.Join(t.TempDir(), "data")
	for round := range 2 {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := runMain(t, t.Context(), "run", "--sf", "0.002", "-d", "1s", "-u", "5", "--data-dir", dataDir, "--out", out, "--no-color")
		if code != ExitOK {
			t.Fatalf("round %d: exit %d\nstdout:\n%s\nstderr:\n%s", round, code, stdout, stderr)
		}
		for _, want := range []string{"go.Go1Step", "go.Go2Step", "go.Go3Step", "find_path.FindShortestPath", "insert.InsertPersonScenario", "OVERVIEW", "checks"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("round %d: stdout lacks %q:\n%s", round, want, stdout)
			}
		}
		// A failed check shows as "checks...: 99.x% ✓ N ✗ M" with M > 0 (not
		// requests_failed, whose ✗ counts the successes, as in k6).
		if strings.Contains(stdout, "wrong result") || failedChecks.MatchString(stdout) {
			t.Errorf("round %d: wrong results:\n%s", round, stdout)
		}
		generated := strings.Contains(stderr, "generating LDBC")
		if generated != (round == 0) {
			t.Errorf("round %d: generated = %v\n%s", round, generated, stderr)
		}
		if _, err := os.Stat(filepath.Join(dataDir, "ldbc-sf0.002.db")); err != nil {
			t.Errorf("embedded database: %v", err)
		}
		if res, err := resultdir.Load(out); err != nil || !res.Options.InProcess {
			t.Errorf("options.json does not mark the embedded SQLite target as in-process (%v)", err)
		}
	}
}

var failedChecks = regexp.MustCompile(`(?m)^\s*checks\.*: [^\n]*✗ [1-9]`)

// Bad or unreachable targets stop the run before it starts with exit 2 and
// one line that names the target without its password.
func TestRunGraphBadTargets(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	tests := []struct {
		name   string
		target string
		want   string
	}{
		{"not a URL", "::x", "bad target URL"},
		{"unknown scheme", "mysql://127.0.0.1/x", "unknown target scheme"},
		{"unreachable postgres", "postgres://me:hunter2@127.0.0.1:1/db?connect_timeout=2", "127.0.0.1:1"},
		{"missing sqlite file", "sqlite://" + filepath.Join(t.TempDir(), "none", "x.db"), "x.db"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runMain(t, t.Context(), "run", "go.Go1Step", "--target", tc.target, "--data", data, "-d", "1s", "--out", t.TempDir(), "-q")
			if code != ExitUsage || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 2 and one line with %q", code, stderr, tc.want)
			}
			if strings.Contains(stderr, "hunter2") {
				t.Errorf("password in %q", stderr)
			}
		})
	}
}
