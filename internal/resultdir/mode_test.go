package resultdir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFileModesAlike: files written atomically (summary.json, summary.txt,
// snapshot.json, ...) get the mode of those written as streams
// (series.jsonl, requests.csv): 0666 less the umask.
func TestFileModesAlike(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFile(dir, "summary.json", []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, SeriesFile))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	a, _ := os.Stat(filepath.Join(dir, "summary.json"))
	b, _ := os.Stat(filepath.Join(dir, SeriesFile))
	if a.Mode() != b.Mode() {
		t.Errorf("summary.json %v, series.jsonl %v", a.Mode(), b.Mode())
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".summary.json.*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
