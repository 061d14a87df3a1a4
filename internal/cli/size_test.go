package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxLines bounds the non-test lines of the package: the command line
// translates flags, displays and maps exit codes; what a command does
// lives in the package that owns it (docs/layers.md).
const maxLines = 2500

// TestSize fails when the package's non-test .go files hold maxLines
// lines or more: move the logic that grew here to the layer it belongs to.
func TestSize(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	total, counted := 0, 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		total += bytes.Count(b, []byte("\n"))
		counted++
	}
	if counted < 10 {
		t.Fatalf("counted %d files: is this the package directory?", counted)
	}
	if total >= maxLines {
		t.Errorf("internal/cli has %d non-test lines, the limit is %d: move what is not flag translation, display or exit codes below it", total, maxLines)
	}
}
