package datagen

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/golden"
)

// TestCsvBasicBytes pins the SHA-256 of every file of a tiny CsvBasic data
// set, so that a change meant for another layout (or anything else) cannot
// alter the default output unnoticed. Run with -update after an intended
// change of the CsvBasic output.
func TestCsvBasicBytes(t *testing.T) {
	dir := t.TempDir()
	generate(t, Config{SF: 0.002, Out: dir, Seed: 42, Workers: 2})
	sums := hashTree(t, dir)
	var paths []string
	for p := range sums {
		if p != ManifestName {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var b strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&b, "%s  %s\n", sums[p], p)
	}
	golden.Check(t, "csvbasic_sf0.002_seed42.sha256", []byte(b.String()))
}
