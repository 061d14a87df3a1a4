package loader

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/golden"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

// fixtureDir materialises ldbctest.Official(layout, millis) under
// testdata/layouts (checked like golden files: `go test -update` rewrites
// them) and returns the directory.
func fixtureDir(t *testing.T, layout string, millis bool) string {
	t.Helper()
	name := layout + "-iso"
	if millis {
		name = layout + "-millis"
	}
	files := ldbctest.Official(layout, millis)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		golden.Check(t, "layouts/"+name+"/"+p, []byte(files[p]))
	}
	return filepath.Join("testdata", "layouts", name)
}

// dump returns every row of every loader table, sorted, as text.
func dump(t *testing.T, target string) string {
	t.Helper()
	var out []string
	row := func(tbl string, vals []any) {
		parts := []string{tbl}
		for _, v := range vals {
			if tm, ok := v.(time.Time); ok {
				v = tm.UTC().Format(time.RFC3339Nano)
			}
			parts = append(parts, fmt.Sprint(v))
		}
		out = append(out, strings.Join(parts, "|"))
	}
	for _, tbl := range TableNames() {
		if tbl == MetaTable {
			continue
		}
		if strings.HasPrefix(target, "sqlite://") {
			db, err := sql.Open("sqlite", sqlite.DSN(strings.TrimPrefix(target, "sqlite://"), false))
			if err != nil {
				t.Fatal(err)
			}
			rows, err := db.QueryContext(t.Context(), "SELECT * FROM "+tbl)
			if err != nil {
				t.Fatal(err)
			}
			cols, _ := rows.Columns()
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				row(tbl, vals)
			}
			rows.Close()
			db.Close()
			continue
		}
		c, err := pgx.Connect(t.Context(), target)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := c.Query(t.Context(), "SELECT * FROM "+tbl)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatal(err)
			}
			row(tbl, vals)
		}
		rows.Close()
		c.Close(t.Context())
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

// Every layout of LDBC's Hadoop datagen, with either date format, loads
// into the same tables as the CsvBasic layout with ISO dates; the layout
// is detected from the headers and recorded.
func TestLoadOfficialLayouts(t *testing.T) {
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			var want string
			for _, layout := range ldbctest.OfficialLayouts {
				for _, millis := range []bool{false, true} {
					dir := fixtureDir(t, layout, millis)
					tgt := target(t)
					st, err := Load(t.Context(), Config{Target: tgt, Data: dir})
					if err != nil {
						t.Fatalf("%s millis=%v: %v", layout, millis, err)
					}
					if st.Meta.Persons != 6 || st.Meta.Knows != 7 || st.Failed != 0 || st.Meta.Layout != layout || st.Meta.MaxPersonID != 8796093022244 {
						t.Errorf("%s millis=%v: %+v", layout, millis, st.Meta)
					}
					got := dump(t, tgt)
					if want == "" {
						want = got
						for _, w := range []string{"person|933|Mahinda|Perera|male|1989-12-03", "person_speaks_language|933|si", "place_ispartof_place|28|1460",
							"person_islocatedin_place|1129|1353", "tagclass_issubclassof_tagclass|212|211", "person_email_emailaddress|933|Mahinda933@hotmail.com"} {
							if !strings.Contains(got, w) {
								t.Errorf("CsvBasic dump lacks %q:\n%s", w, got)
							}
						}
						continue
					}
					if got != want {
						t.Errorf("%s millis=%v loads other rows than CsvBasic:\n%s\nwant\n%s", layout, millis, got, want)
					}
				}
			}
		})
	}
}

// Forcing a date format that the data set does not use rejects every row:
// the load fails, naming the first bad row, and loads nothing.
func TestLoadWrongDateFormatFails(t *testing.T) {
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			tgt := target(t)
			_, err := Load(t.Context(), Config{Target: tgt, Data: fixtureDir(t, "CsvBasic", true), Dates: ldbcfile.DatesISO,
				FailedRows: filepath.Join(t.TempDir(), "f.csv")})
			if err == nil || !strings.Contains(err.Error(), "rows are not valid") || !strings.Contains(err.Error(), "birthday") {
				t.Fatalf("err = %v", err)
			}
			if m, err := Inspect(t.Context(), tgt, nil); m != nil || err != nil {
				t.Errorf("target after the failed load: %+v, %v", m, err)
			}
		})
	}
}
