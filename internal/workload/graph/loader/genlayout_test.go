package loader

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// A data set generated in the CsvMergeForeign layout loads into exactly
// the rows of the same data set generated in CsvBasic (every table, on
// SQLite and PostgreSQL), and is detected as that layout; the merged
// relation files (person, static and activity) are not written.
func TestGeneratedMergeForeignLoadsLikeBasic(t *testing.T) {
	dirs := map[string]string{}
	gen := map[string]datagen.Stats{}
	merged := []string{ldbcfile.PersonIsLocatedInPlacePath, ldbcfile.PlaceIsPartOfPlacePath, ldbcfile.OrganisationIsLocatedInPlacePath,
		ldbcfile.TagClassIsSubclassOfTagClassPath, ldbcfile.TagHasTypeTagClassPath,
		ldbcfile.ForumHasModeratorPersonPath, ldbcfile.ForumContainerOfPostPath, ldbcfile.PostHasCreatorPersonPath,
		ldbcfile.PostIsLocatedInPlacePath, ldbcfile.CommentHasCreatorPersonPath, ldbcfile.CommentIsLocatedInPlacePath,
		ldbcfile.CommentReplyOfPostPath, ldbcfile.CommentReplyOfCommentPath}
	for _, layout := range []string{datagen.LayoutCsvBasic, datagen.LayoutCsvMergeForeign} {
		dir := t.TempDir()
		st, err := datagen.Generate(t.Context(), datagen.Config{SF: 0.002, Out: dir, Seed: 42, Workers: 2, Layout: layout})
		if err != nil {
			t.Fatalf("%s: %v", layout, err)
		}
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
		dirs[layout], gen[layout] = dir, st
	}
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			dumps := map[string]string{}
			counts := map[string]map[string]int64{}
			for _, layout := range []string{datagen.LayoutCsvBasic, datagen.LayoutCsvMergeForeign} {
				tgt := target(t)
				lst, err := Load(t.Context(), Config{Target: tgt, Data: dirs[layout]})
				if err != nil {
					t.Fatalf("load %s: %v", layout, err)
				}
				st := gen[layout]
				if lst.Meta.Layout != layout || lst.Failed != 0 || lst.Meta.Persons != st.Persons || lst.Meta.Knows != st.Knows || !lst.Meta.Activity {
					t.Errorf("%s: load record %+v, failed %d; generated %d persons, %d knows", layout, lst.Meta, lst.Failed, st.Persons, st.Knows)
				}
				counts[layout] = map[string]int64{}
				for _, ts := range lst.Tables {
					counts[layout][ts.Table] = ts.Loaded
				}
				dumps[layout] = dump(t, tgt)
			}
			basic, mf := dumps[datagen.LayoutCsvBasic], dumps[datagen.LayoutCsvMergeForeign]
			for _, tbl := range TableNames() {
				if tbl == MetaTable {
					continue
				}
				if !strings.Contains(basic, "\n"+tbl+"|") && !strings.HasPrefix(basic, tbl+"|") {
					t.Errorf("CsvBasic load has no %s rows", tbl)
				}
				if b, m := counts[datagen.LayoutCsvBasic][tbl], counts[datagen.LayoutCsvMergeForeign][tbl]; b != m || b == 0 {
					t.Errorf("%s: %d rows from CsvBasic, %d from CsvMergeForeign", tbl, b, m)
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
		})
	}
}

// A merged creator that names no person of the person file rejects its
// row, as the same reference in post_hasCreator_person would.
func TestMergedCreatorMustBeAPerson(t *testing.T) {
	dir := t.TempDir()
	if _, err := datagen.Generate(t.Context(), datagen.Config{SF: 0.002, Out: dir, Seed: 42, Workers: 2, Layout: datagen.LayoutCsvMergeForeign}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, filepath.FromSlash(ldbcfile.PostPath))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	f := strings.Split(lines[1], "|")
	f[8] = "999999999" // creator
	lines[1] = strings.Join(f, "|")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(t.Context(), Config{Target: "sqlite://" + filepath.Join(t.TempDir(), "g.db"), Data: dir, FailedRows: filepath.Join(t.TempDir(), "f.csv")})
	if !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), "creator 999999999 is not in") {
		t.Fatalf("err = %v", err)
	}
}
