package datagen

import (
	"testing"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// The CsvMergeForeign layout is as deterministic as CsvBasic, whatever the
// workers, and differs from it only in the merged entity files (and the
// relation files it leaves out): every other file is byte-identical.
func TestMergeForeignLayout(t *testing.T) {
	basicDir := t.TempDir()
	generate(t, Config{SF: 0.01, Out: basicDir, Seed: 42, Workers: 2})
	basic := hashTree(t, basicDir)
	var ref map[string]string
	for _, workers := range []int{1, 3} {
		dir := t.TempDir()
		generate(t, Config{SF: 0.01, Out: dir, Seed: 42, Workers: workers, Layout: LayoutCsvMergeForeign})
		sums := hashTree(t, dir)
		if ref == nil {
			ref = sums
		} else if len(sums) != len(ref) {
			t.Fatalf("workers=%d: %d files, want %d", workers, len(sums), len(ref))
		}
		for path, sum := range ref {
			if sums[path] != sum {
				t.Errorf("workers=%d: %s differs from workers=1", workers, path)
			}
		}
	}
	changed := map[string]bool{ldbcfile.PersonPath: true, ldbcfile.PlacePath: true, ldbcfile.OrganisationPath: true,
		ldbcfile.TagPath: true, ldbcfile.TagClassPath: true, ldbcfile.ForumPath: true, ldbcfile.PostPath: true, ldbcfile.CommentPath: true}
	dropped := map[string]bool{ldbcfile.PersonIsLocatedInPlacePath: true, ldbcfile.PlaceIsPartOfPlacePath: true,
		ldbcfile.OrganisationIsLocatedInPlacePath: true, ldbcfile.TagHasTypeTagClassPath: true, ldbcfile.TagClassIsSubclassOfTagClassPath: true,
		ldbcfile.ForumHasModeratorPersonPath: true, ldbcfile.ForumContainerOfPostPath: true, ldbcfile.PostHasCreatorPersonPath: true,
		ldbcfile.PostIsLocatedInPlacePath: true, ldbcfile.CommentHasCreatorPersonPath: true, ldbcfile.CommentIsLocatedInPlacePath: true,
		ldbcfile.CommentReplyOfPostPath: true, ldbcfile.CommentReplyOfCommentPath: true}
	for path, sum := range basic {
		got, ok := ref[path]
		switch {
		case dropped[path]:
			if ok {
				t.Errorf("CsvMergeForeign wrote %s", path)
			}
		case !ok:
			t.Errorf("CsvMergeForeign lacks %s", path)
		case changed[path] == (got == sum) && path != ManifestName:
			t.Errorf("%s: changed=%v, want %v", path, got != sum, changed[path])
		}
	}
}
