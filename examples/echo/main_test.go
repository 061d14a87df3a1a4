package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/cmdline"
	"github.com/stampede-bench/stampede/families"
)

// stampedeCLI runs the example's command line in this process.
func stampedeCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cmdline.Main(context.Background(), families.Builtins().Add(echoFamily()), args, &out, &errb)
	return code, out.String(), errb.String()
}

// iterations reads the iterations of scenario 0 from a result directory.
func iterations(t *testing.T, dir string) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Scenarios []struct {
			Name     string           `json:"name"`
			Counters map[string]int64 `json:"counters"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(b, &snap); err != nil {
		t.Fatal(err)
	}
	if len(snap.Scenarios) != 1 || snap.Scenarios[0].Name != "echo.RoundTrip" {
		t.Fatalf("snapshot scenarios %+v", snap.Scenarios)
	}
	return snap.Scenarios[0].Counters["iterations"]
}

// TestEchoThroughTheCLI runs the Go-defined scenario through the complete
// command line: listed, run with thresholds into result directories,
// compared, run in two segments and merged.
func TestEchoThroughTheCLI(t *testing.T) {
	root := t.TempDir()
	if code, out, errs := stampedeCLI(t, "scenarios"); code != 0 || !strings.Contains(out, "echo.RoundTrip") || !strings.Contains(out, "go.Go1Step") {
		t.Fatalf("scenarios: exit %d\n%s%s", code, out, errs)
	}

	base, cand := filepath.Join(root, "base"), filepath.Join(root, "cand")
	for _, dir := range []string{base, cand} {
		code, out, errs := stampedeCLI(t, "run", "echo.RoundTrip", "-u", "2", "-i", "300",
			"--threshold", "responseTime: p(99)<1000", "--threshold", "iterations: count==300", "--out", dir, "-q")
		if code != 0 {
			t.Fatalf("run: exit %d: %s", code, errs)
		}
		if !strings.Contains(out, "echo.RoundTrip") || !strings.Contains(out, "responseTime") {
			t.Errorf("console summary:\n%s", out)
		}
		for _, f := range []string{"options.json", "env.json", "snapshot.json", "summary.json", "summary.txt", "requests.csv", "report.html"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("result directory: %v", err)
			}
		}
		if got := iterations(t, dir); got != 300 {
			t.Errorf("iterations = %d, want 300", got)
		}
		if txt, _ := os.ReadFile(filepath.Join(dir, "summary.txt")); !strings.Contains(string(txt), "echo server inside stampede's process") {
			t.Errorf("the scenario's note is not in the summary:\n%s", txt)
		}
		if csv, _ := os.ReadFile(filepath.Join(dir, "requests.csv")); strings.Count(string(csv), "echo 64B") != 300 {
			t.Errorf("requests.csv has %d echo lines, want 300", strings.Count(string(csv), "echo 64B"))
		}
	}

	// A threshold that cannot hold: exit 99, as k6.
	code, _, errs := stampedeCLI(t, "run", "echo.RoundTrip", "-u", "1", "-i", "20", "--threshold", "responseTime: max<0", "--out", filepath.Join(root, "failed"), "-q", "--no-csv")
	if code != 99 || !strings.Contains(errs, "thresholds") {
		t.Errorf("failing threshold: exit %d: %s", code, errs)
	}

	code, out, errs := stampedeCLI(t, "compare", base, cand)
	if code != 0 || !strings.Contains(out, "echo.RoundTrip") {
		t.Fatalf("compare: exit %d\n%s%s", code, out, errs)
	}

	// Two segments of one plan, merged, make the whole plan.
	parts := filepath.Join(root, "parts")
	for _, seg := range []string{"1/2", "2/2"} {
		dir := filepath.Join(parts, strings.ReplaceAll(seg, "/", "-of-"))
		if code, _, errs := stampedeCLI(t, "run", "echo.RoundTrip", "-u", "2", "-i", "301", "--segment", seg, "--out", dir, "-q"); code != 0 {
			t.Fatalf("segment %s: exit %d: %s", seg, code, errs)
		}
	}
	merged := filepath.Join(root, "merged")
	if code, _, errs := stampedeCLI(t, "merge", parts, "-o", merged, "-q"); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if got := iterations(t, merged); got != 301 {
		t.Errorf("merged iterations = %d, want 301", got)
	}
}

// TestEchoProgram runs the program itself: Execute with its flags, the
// summary on stdout, exit 99 when a threshold fails, 2 on bad input
// before anything is created.
func TestEchoProgram(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"-u", "2", "-d", "1s", "-out", dir, "-threshold", "responseTime: max<0"}, &out, &errb); code != 99 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "echo.RoundTrip") || iterations(t, dir) < 1 {
		t.Errorf("summary:\n%s", out.String())
	}
	for _, f := range []string{"requests.csv", "series.jsonl", "report.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("default outputs: %v", err)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if code := run(context.Background(), []string{"-threshold", "nosuch: count>0", "-out", bad}, &out, &errb); code != 2 {
		t.Errorf("bad threshold: exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a result directory for a refused plan")
	}
}

// TestEchoBadUsage: bad input to the example is one line and exit 2, as
// for the built-in scenarios.
func TestEchoBadUsage(t *testing.T) {
	code, _, errs := stampedeCLI(t, "run", "echo.Roundtrip", "--out", filepath.Join(t.TempDir(), "r"))
	if code != 2 || !strings.Contains(errs, "did you mean echo.RoundTrip") {
		t.Errorf("exit %d: %s", code, errs)
	}
}
