package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder captures failures instead of failing the test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(dir)
	os.MkdirAll("testdata/sub", 0o755)
	os.WriteFile(filepath.Join("testdata", "sub", "a.txt"), []byte("one\ntwo\n"), 0o644)
	r := &recorder{TB: t}
	Check(r, "sub/a.txt", []byte("one\ntwo\n"))
	if r.failed {
		t.Error("equal output failed")
	}
	Check(r, "sub/a.txt", []byte("one\nthree\n"))
	if !r.failed {
		t.Error("different output passed")
	}
	r.failed = false
	Check(r, "missing.txt", nil)
	if !r.failed {
		t.Error("missing golden file passed")
	}
}
