package loader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/workload/ldbc/datagen"
	"github.com/stampede-bench/stampede/internal/workload/ldbc/ldbcfile"
)

// A data set generated in the CsvMergeForeign layout loads into exactly
// the rows of the same data set generated in CsvBasic, and is detected as
// that layout; the merged relation files are not written.
func TestGeneratedMergeForeignLoadsLikeBasic(t *testing.T) {
	dumps := map[string]string{}
	for _, layout := range []string{datagen.LayoutCsvBasic, datagen.LayoutCsvMergeForeign} {
		dir := t.TempDir()
		st, err := datagen.Generate(t.Context(), datagen.Config{SF: 0.002, Out: dir, Seed: 42, Workers: 2, Layout: layout})
		if err != nil {
			t.Fatalf("%s: %v", layout, err)
		}
		merged := []string{ldbcfile.PersonIsLocatedInPlacePath, ldbcfile.PlaceIsPartOfPlacePath, ldbcfile.OrganisationIsLocatedInPlacePath,
			ldbcfile.TagClassIsSubclassOfTagClassPath, ldbcfile.TagHasTypeTagClassPath}
		for _, rel := range merged {
			_, statErr := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
			_, counted := st.Files[rel]
			if wantFile := layout == datagen.LayoutCsvBasic; (statErr == nil) != wantFile || counted != wantFile {
				t.Errorf("%s: %s exists=%v counted=%v", layout, rel, statErr == nil, counted)
			}
		}
		if got, err := ldbcfile.DetectLayout(dir); err != nil || got != layout {
			t.Errorf("DetectLayout = %q, %v; want %s", got, err, layout)
		}
		tgt := "sqlite://" + filepath.Join(t.TempDir(), "g.db")
		lst, err := Load(t.Context(), Config{Target: tgt, Data: dir})
		if err != nil {
			t.Fatalf("load %s: %v", layout, err)
		}
		if lst.Meta.Layout != layout || lst.Failed != 0 || lst.Meta.Persons != st.Persons || lst.Meta.Knows != st.Knows {
			t.Errorf("%s: load record %+v, failed %d; generated %d persons, %d knows", layout, lst.Meta, lst.Failed, st.Persons, st.Knows)
		}
		dumps[layout] = dump(t, tgt)
	}
	basic, mf := dumps[datagen.LayoutCsvBasic], dumps[datagen.LayoutCsvMergeForeign]
	for _, tbl := range []string{"person_islocatedin_place|", "place_ispartof_place|", "organisation_islocatedin_place|",
		"tagclass_issubclassof_tagclass|", "tag_hastype_tagclass|", "post|", "comment|", "forum|"} {
		if !strings.Contains(basic, "\n"+tbl) {
			t.Errorf("CsvBasic load has no %s rows", strings.TrimSuffix(tbl, "|"))
		}
	}
	if basic != mf {
		bl, ml := strings.Split(basic, "\n"), strings.Split(mf, "\n")
		t.Errorf("CsvMergeForeign loads other rows than CsvBasic: %d vs %d rows", len(ml), len(bl))
		for i := range min(len(bl), len(ml)) {
			if bl[i] != ml[i] {
				t.Fatalf("first difference at row %d:\nbasic %s\nmerge %s", i, bl[i], ml[i])
			}
		}
	}
}
