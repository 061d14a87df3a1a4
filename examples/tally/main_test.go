package main

import (
	"bytes"
	"context"
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
	cat := families.Builtins()
	if err := cat.AddOutput(tallyOutput); err != nil {
		t.Fatal(err)
	}
	code = cmdline.Main(context.Background(), cat, args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestTallyThroughTheCLI runs builtin.Noop through the complete command
// line with --out tally=FILE: the output received every request record
// and every per-second point, without the request CSV.
func TestTallyThroughTheCLI(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "tally.txt")
	code, _, errs := stampedeCLI(t, "run", "builtin.Noop", "-u", "3", "-i", "2000",
		"--out", "tally="+file, "--out", filepath.Join(root, "r"), "--no-csv", "-q")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{"requests in seconds 2000\n", "failed 0\n", `requests "noop" 2000` + "\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("tally lacks %q:\n%s", want, got)
		}
	}
	if strings.HasPrefix(got, "seconds 0\n") {
		t.Errorf("no per-second point observed:\n%s", got)
	}

	// A run of a few seconds: a point per second, and the request records
	// agree with the points.
	file2 := filepath.Join(root, "tally2.txt")
	code, _, errs = stampedeCLI(t, "run", "builtin.Noop", "--executor", "constant-arrival-rate", "--rate", "200", "-d", "2s",
		"--out", "tally="+file2, "--out", filepath.Join(root, "r2"), "-q")
	if code != 0 {
		t.Fatalf("timed run: exit %d: %s", code, errs)
	}
	b, err = os.ReadFile(file2)
	if err != nil {
		t.Fatal(err)
	}
	var seconds, inSeconds, noop int64
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		switch f := strings.Fields(line); {
		case f[0] == "seconds":
			seconds = atoi(t, f[1])
		case len(f) == 4 && f[2] == "seconds":
			inSeconds = atoi(t, f[3])
		case f[0] == "requests" && f[1] == `"noop"`:
			noop = atoi(t, f[2])
		}
	}
	if seconds < 2 || noop < 300 || inSeconds != noop {
		t.Errorf("seconds %d, requests in seconds %d, request records %d; want ≥ 2 seconds and the same ≥ 300 requests both ways:\n%s", seconds, inSeconds, noop, b)
	}
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a count: %q", s)
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// TestTallyBadUsage: a bad --out tally= is one line and exit 2, before
// anything runs; so is an output name nobody knows, naming tally among the
// known ones.
func TestTallyBadUsage(t *testing.T) {
	root := t.TempDir()
	exists := filepath.Join(root, "exists.txt")
	if err := os.WriteFile(exists, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ out, want string }{
		{"tally=", "stampede: --out tally: needs a file name, e.g. tally=tally.txt"},
		{"tally=" + exists, "stampede: --out tally: " + exists + " exists; choose another name"},
		{"tallyho=x", `stampede: unknown output "tallyho" in --out tallyho=x (known: influxdb=URL, prometheus-rw=URL, json=FILE, csv=FILE, tally=FILE, or a directory)`},
	} {
		dir := filepath.Join(root, "r")
		code, _, errs := stampedeCLI(t, "run", "builtin.Noop", "-i", "1", "--out", tc.out, "--out", dir)
		if code != 2 || strings.TrimSpace(errs) != tc.want {
			t.Errorf("--out %s: exit %d, stderr %q; want 2, %q", tc.out, code, errs, tc.want)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("--out %s: the result directory was created", tc.out)
		}
	}
	if b, _ := os.ReadFile(exists); string(b) != "keep" {
		t.Errorf("the existing file was changed: %q", b)
	}
}

// TestTallyProgram runs the program itself: demo.Noop through Execute
// with the default outputs and tally=FILE; an existing FILE is refused
// with exit 2 before anything is created.
func TestTallyProgram(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "tally.txt")
	var errb bytes.Buffer
	if code := run(context.Background(), []string{"-u", "2", "-d", "1s", "-tally", file, "-out", filepath.Join(root, "r")}, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), `requests "noop" `) || !strings.Contains(string(b), "failed 0\n") {
		t.Fatalf("tally %q: %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(root, "r", "requests.csv")); err != nil {
		t.Errorf("default outputs: %v", err)
	}
	if code := run(context.Background(), []string{"-tally", file, "-out", filepath.Join(root, "again")}, &errb); code != 2 {
		t.Errorf("existing tally file: exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(root, "again")); err == nil {
		t.Error("a result directory for a refused plan")
	}
}
