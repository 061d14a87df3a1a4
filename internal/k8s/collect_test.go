package k8s

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/usage"
)

func TestCollect(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "snapshot.json"), []byte(`{"version":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var pod0, pod1 bytes.Buffer
	pod0.WriteString("starting\n")
	if _, err := WriteArchive(&pod0, src, "job-0", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteArchive(&pod1, src, "job-1", nil); err != nil {
		t.Fatal(err)
	}
	logs := t.TempDir()
	log0, log1 := filepath.Join(logs, "0.log"), filepath.Join(logs, "1.log")
	os.WriteFile(log0, pod0.Bytes(), 0o644)
	os.WriteFile(log1, pod1.Bytes(), 0o644)

	t.Run("files in order", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "new", "dir")
		dirs, err := Collect([]string{log1, log0}, strings.NewReader("ignored"), out)
		if err != nil {
			t.Fatal(err)
		}
		if len(dirs) != 2 || filepath.Base(dirs[0]) != "job-1" || filepath.Base(dirs[1]) != "job-0" {
			t.Fatalf("dirs %v, want job-1 then job-0", dirs)
		}
		if b, err := os.ReadFile(filepath.Join(dirs[1], "snapshot.json")); err != nil || string(b) != `{"version":1}` {
			t.Errorf("extracted %q %v", b, err)
		}
	})
	t.Run("stdin without files", func(t *testing.T) {
		dirs, err := Collect(nil, bytes.NewReader(pod0.Bytes()), t.TempDir())
		if err != nil || len(dirs) != 1 {
			t.Fatalf("%v %v", dirs, err)
		}
	})
	for name, paths := range map[string][]string{
		"a missing log file":    {filepath.Join(logs, "missing.log")},
		"logs without a result": {filepath.Join(logs, "empty.log")},
	} {
		t.Run(name, func(t *testing.T) {
			os.WriteFile(filepath.Join(logs, "empty.log"), []byte("just a log\n"), 0o644)
			out := filepath.Join(t.TempDir(), "out")
			dirs, err := Collect(paths, nil, out)
			if !usage.Is(err) || len(dirs) != 0 {
				t.Fatalf("%v %v, want a usage error", dirs, err)
			}
		})
	}
}
