package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenLDBCBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	nonEmpty := t.TempDir()
	if err := os.WriteFile(filepath.Join(nonEmpty, "x.csv"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown SF", []string{"--sf", "2", "--out", t.TempDir()}, "scale factor 2 is not an LDBC one"},
		{"SF not a number", []string{"--sf", "ten", "--out", t.TempDir()}, `invalid argument "ten" for "--sf"`},
		{"negative SF", []string{"--sf", "-1", "--out", t.TempDir()}, "must be positive"},
		{"missing out", []string{"--sf", "0.1"}, "--out is required"},
		{"unwritable out", []string{"--sf", "0.01", "--out", filepath.Join(file, "data")}, "cannot create output directory"},
		{"non-empty out", []string{"--sf", "0.01", "--out", nonEmpty}, "not empty (--force replaces a data set stampede wrote there, and nothing else)"},
		{"bad workers", []string{"--sf", "0.01", "--out", t.TempDir(), "--workers", "0"}, "--workers 0"},
		{"bad layout", []string{"--sf", "0.01", "--out", t.TempDir(), "--layout", "CsvComposite"}, `--layout "CsvComposite" must be CsvBasic or CsvMergeForeign`},
		{"stray argument", []string{"--sf", "0.01", "--out", t.TempDir(), "extra"}, "unknown command"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(context.Background(), append([]string{"gen", "ldbc"}, tc.args...), &out, &errb)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d", code, ExitUsage)
			}
			msg := errb.String()
			if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "stampede: ") || !strings.Contains(msg, tc.want) {
				t.Errorf("stderr %q: want one line containing %q", msg, tc.want)
			}
			if out.Len() != 0 {
				t.Errorf("stdout %q, want nothing", out.String())
			}
		})
	}
}

func TestGenLDBCWritesSummary(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	args := []string{"gen", "ldbc", "--sf", "0.002", "--out", dir, "--seed", "7", "--workers", "2"}
	if code := Main(context.Background(), args, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{
		"social_network/dynamic/person_0_0.csv", "substitution_parameters/insert_person.csv",
		"persons     22", "knows", "total rows", "seed 7 written to " + dir,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	// Not a terminal: no progress bar, one final line.
	if lines := strings.Count(errb.String(), "\n"); lines != 1 || !strings.Contains(errb.String(), "rows/s") {
		t.Errorf("stderr %q: want one final line with rows/s", errb.String())
	}
	// A second run refuses, then --force --quiet succeeds silently on stderr.
	errb.Reset()
	if code := Main(context.Background(), args, &out, &errb); code != ExitUsage {
		t.Fatalf("second run exit %d, want %d", code, ExitUsage)
	}
	errb.Reset()
	if code := Main(context.Background(), append(args, "--force", "--quiet"), &out, &errb); code != ExitOK || errb.Len() != 0 {
		t.Fatalf("--force --quiet: exit %d, stderr %q", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "substitution_parameters", "khop_person.csv")); err != nil {
		t.Error(err)
	}
}

// --update-streams writes the update streams, lists them in the summary
// with their operation counts, and --force replaces such a data set.
func TestGenLDBCUpdateStreams(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	args := []string{"gen", "ldbc", "--sf", "0.005", "--out", dir, "--workers", "2", "--quiet", "--update-streams"}
	if code := Main(context.Background(), args, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, f := range []string{"updateStream_0_0_person.csv", "updateStream_0_0_forum.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, "social_network", f))
		if err != nil {
			t.Fatal(err)
		}
		want := "social_network/" + f + " "
		if n := bytes.Count(b, []byte("\n")); n == 0 || !strings.Contains(out.String(), want) {
			t.Errorf("%s: %d operations; summary:\n%s", f, n, out.String())
		}
	}
	if code := Main(context.Background(), append(args, "--force"), &out, &errb); code != ExitOK {
		t.Fatalf("--force over a data set with streams: exit %d: %s", code, errb.String())
	}
}
