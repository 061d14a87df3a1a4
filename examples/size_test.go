// Package examples holds the example programs (one directory each) and
// this test of what they link.
package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// maxBytes is the most an example program may weigh: a program that
// imports the package stampede and its own families and outputs links
// neither the built-in families (NATS server, Kafka stand-in, SQLite,
// Kubernetes API) nor the command line.
const maxBytes = 25 << 20

// TestExampleSizes builds every example program and fails when one links
// more than maxBytes. It is a build, not a timed test.
func TestExampleSizes(t *testing.T) {
	dirs, err := filepath.Glob("*/main.go")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no example programs: %v", err)
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, m := range dirs {
		name := filepath.Dir(m)
		t.Run(name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), name)
			cmd := exec.Command(gobin, "build", "-o", bin, "./"+name)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build ./examples/%s: %v\n%s", name, err, out)
			}
			st, err := os.Stat(bin)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %.1f MB", name, float64(st.Size())/(1<<20))
			if st.Size() > maxBytes {
				t.Errorf("examples/%s is %.1f MB, more than %d MB: it links what it does not use (go version -m, or go build -ldflags=-dumpdep, shows what)", name, float64(st.Size())/(1<<20), maxBytes>>20)
			}
		})
	}
}
