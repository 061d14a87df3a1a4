package csvlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/engine"
)

// TestFile: the request CSV output creates its file and directories only
// on Start, and holds every row after Stop.
func TestFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "er", "requests.csv")
	f := NewFile(path, Options{})
	if _, err := os.Stat(filepath.Dir(path)); err == nil {
		t.Fatal("NewFile created the directory")
	}
	if err := f.Start(); err != nil {
		t.Fatal(err)
	}
	w := f.Writer("go.Go1Step")
	for _, q := range []string{"a", "b"} {
		w.Write(engine.RequestRecord{Time: t0, Query: q, Latency: -1, OK: true})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(f.Path())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "timestamp,query") {
		t.Errorf("file:\n%s", b)
	}
	blocked := NewFile(filepath.Join(path, "x.csv"), Options{}) // a file stands where a directory must be
	if err := blocked.Start(); err == nil {
		t.Error("Start under a file succeeded")
	}
}
