package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/result/report"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// reportPayload extracts the JSON payload of a report page.
func reportPayload(t *testing.T, path string) *report.Payload {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const open = `<script type="application/json" id="stampede-data">`
	s := string(b)
	i := strings.Index(s, open)
	if i < 0 {
		t.Fatalf("%s has no data element", path)
	}
	s = s[i+len(open):]
	s = s[:strings.Index(s, "</script>")]
	var p report.Payload
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &p
}

func TestReportCommand(t *testing.T) {
	parent := t.TempDir()
	a, b := filepath.Join(parent, "a"), filepath.Join(parent, "b")
	for _, dir := range []string{a, b} {
		if code, _, stderr := runMain(t, t.Context(), "run", "builtin.Noop", "-u", "2", "-i", "2000", "--out", dir, "--quiet", "--no-csv"); code != 0 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
	}
	// run wrote the report and the self-check by itself.
	if p := reportPayload(t, filepath.Join(a, resultdir.ReportFile)); len(p.Runs) != 1 || p.Runs[0].Scenarios[0].Summary.Iterations != 2000 {
		t.Errorf("run's own report: %+v", p.Runs)
	}
	out := filepath.Join(t.TempDir(), "compare.html")
	code, _, stderr := runMain(t, t.Context(), "report", a, b, "-o", out, "--label", "before", "--label", "after")
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "report: "+out+" (2 runs)") {
		t.Errorf("stderr %q", stderr)
	}
	p := reportPayload(t, out)
	if len(p.Runs) != 2 || p.Runs[0].Label != "before" || p.Runs[1].Label != "after" {
		t.Errorf("labels: %v", p.Runs)
	}
	// A parent directory stands for the runs below it; the report goes into it.
	os.Remove(filepath.Join(parent, resultdir.ReportFile))
	if code, _, stderr := runMain(t, t.Context(), "report", parent, "-q"); code != 0 || stderr != "" {
		t.Fatalf("report parent: exit %d: %q", code, stderr)
	}
	if p := reportPayload(t, filepath.Join(parent, resultdir.ReportFile)); len(p.Runs) != 2 {
		t.Errorf("parent report has %d runs", len(p.Runs))
	}
	// -o - writes to stdout.
	code, stdout, _ := runMain(t, t.Context(), "report", a, "-o", "-")
	if code != 0 || !strings.HasPrefix(stdout, "<!doctype html>") {
		t.Errorf("stdout report: exit %d, %.40q", code, stdout)
	}
	// --no-report leaves it out.
	c := filepath.Join(parent, "c")
	if code, _, stderr := runMain(t, t.Context(), "run", "builtin.Noop", "-i", "10", "--out", c, "--quiet", "--no-csv", "--no-report"); code != 0 {
		t.Fatalf("run --no-report: %s", stderr)
	}
	if _, err := os.Stat(filepath.Join(c, resultdir.ReportFile)); !os.IsNotExist(err) {
		t.Errorf("--no-report wrote a report: %v", err)
	}
}

func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	broken := filepath.Join(dir, "broken")
	os.Mkdir(broken, 0o755)
	os.WriteFile(filepath.Join(broken, resultdir.SnapshotFile), []byte("{not json"), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no argument", []string{"report"}, "requires at least 1 arg"},
		{"missing dir", []string{"report", filepath.Join(dir, "nope")}, "no such file"},
		{"no result below", []string{"report", empty}, "holds no result directory"},
		{"broken snapshot", []string{"report", broken}, "snapshot.json"},
		{"too few points", []string{"report", broken, "--max-points", "3"}, "--max-points must be at least 10"},
		{"too many labels", []string{"report", broken, "--label", "x", "--label", "y"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runMain(t, t.Context(), tc.args...)
			if code != ExitUsage {
				t.Errorf("exit %d, want 2: %s", code, stderr)
			}
			if !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("stderr %q, want one line with %q", stderr, tc.want)
			}
		})
	}
}
