// Package golden checks rendered output (CSV, JSON, console, HTML data,
// compare tables, manifests) against files under the package's testdata/
// directory. `go test -update` rewrites the files instead.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the -update flag of every test binary that imports golden.
var update = flag.Bool("update", false, "rewrite golden files under testdata/ instead of comparing")

// Update reports whether the test run was asked to rewrite golden files.
func Update() bool { return *update }

// Check compares got with testdata/name; with -update it writes got there
// first. A difference is reported with the first differing line.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	line := 0
	for line < len(gl) && line < len(wl) && gl[line] == wl[line] {
		line++
	}
	at := func(l []string) string {
		if line < len(l) {
			return l[line]
		}
		return "(end of file)"
	}
	t.Errorf("%s differs at line %d (run go test -update to accept):\n got: %s\nwant: %s\n--- whole output ---\n%s", path, line+1, at(gl), at(wl), got)
}
