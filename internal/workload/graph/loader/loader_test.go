package loader

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/stampede-bench/stampede/internal/driver/postgres/pgtest"
	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

// dirty is the tiny graph plus one bad row of every kind.
var dirty = ldbctest.With(ldbctest.Tiny, map[string][]string{
	ldbcfile.PersonPath: {
		"1|Dup|Licate|male|1985-01-02|2011-02-03T04:05:06.789+0000|1.2.3.4|Chrome", // duplicate id 1
		"9|Bad|Gender|other|1985-01-02|2011-02-03T04:05:06.789+0000|1.2.3.4|Chrome",
		"10|Too|Few|male",
		"11|Bad|Date|male|1985-13-02|2011-02-03T04:05:06.789+0000|1.2.3.4|Chrome",
	},
	ldbcfile.PersonKnowsPersonPath: {
		"2|1|2012-01-01T00:00:00.000+0000",  // 1-2 again, reversed
		"1|99|2012-01-01T00:00:00.000+0000", // unknown person
		"5|5|2012-01-01T00:00:00.000+0000",  // self
		"x|5|2012-01-01T00:00:00.000+0000",  // bad id
	},
	ldbcfile.PersonSpeaksLanguagePath: {"1|en"}, // duplicate pair
})

// wantFailed are the failed-rows lines of dirty: file, line and a piece of
// the reason.
var wantFailed = []struct {
	file   string
	line   string
	reason string
}{
	{ldbcfile.PersonPath, "10", "duplicate id 1"},
	{ldbcfile.PersonPath, "11", "gender"},
	{ldbcfile.PersonPath, "12", "4 fields, want 8"},
	{ldbcfile.PersonPath, "13", "birthday"},
	{ldbcfile.PersonKnowsPersonPath, "8", "duplicate friendship 1-2"},
	{ldbcfile.PersonKnowsPersonPath, "9", "person2id 99 is not in"},
	{ldbcfile.PersonKnowsPersonPath, "10", "cannot know themself"},
	{ldbcfile.PersonKnowsPersonPath, "11", "bad id"},
	{ldbcfile.PersonSpeaksLanguagePath, "5", "duplicate personid 1 with language en"},
}

func targets(t *testing.T) map[string]func(t *testing.T) string {
	return map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite://" + filepath.Join(t.TempDir(), "g.db") },
		"postgres": func(t *testing.T) string { return pgtest.Schema(t) },
	}
}

func TestLoadFailedRows(t *testing.T) {
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			ldbctest.Write(t, dir, dirty)
			tgt := target(t)
			failed := filepath.Join(t.TempDir(), "failed.csv")
			// By default any failed row fails the load, and the target
			// is not touched.
			_, err := Load(t.Context(), Config{Target: tgt, Data: dir, FailedRows: failed, Workers: 2})
			if !errors.Is(err, ErrRejected) || !usage.Is(err) ||
				!strings.Contains(err.Error(), "9 of 26 rows are not valid") || !strings.Contains(err.Error(), "nothing was loaded") {
				t.Fatalf("default load of dirty data: %v, want ErrRejected", err)
			}
			if m, err := Inspect(t.Context(), tgt, nil); m != nil || err != nil {
				t.Fatalf("target after a rejected load: %+v, %v", m, err)
			}
			for _, lim := range []string{"8", "34%"} { // 9 rows; 34% of 26 is 8
				l, _ := ParseLimit(lim)
				if _, err := Load(t.Context(), Config{Target: tgt, Data: dir, FailedRows: failed, MaxRejected: l}); !errors.Is(err, ErrRejected) {
					t.Fatalf("--max-rejected %s: %v, want ErrRejected", lim, err)
				}
			}
			lim, _ := ParseLimit("35%")
			st, err := Load(t.Context(), Config{Target: tgt, Data: dir, FailedRows: failed, Workers: 2, MaxRejected: lim})
			if err != nil {
				t.Fatal(err)
			}
			byTable := map[string]TableStats{}
			for _, ts := range st.Tables {
				byTable[ts.Table] = ts
			}
			for table, want := range map[string][2]int64{
				PersonTable:              {8, 4},
				KnowsTable:               {6, 4},
				"person_speaks_language": {3, 1},
				"place":                  {0, 0},
			} {
				if got := byTable[table]; got.Loaded != want[0] || got.Failed != want[1] {
					t.Errorf("%s: loaded %d failed %d, want %d and %d", table, got.Loaded, got.Failed, want[0], want[1])
				}
			}
			if st.Meta.Persons != 8 || st.Meta.Knows != 6 || st.Failed != int64(len(wantFailed)) || st.FailedRows != failed {
				t.Errorf("stats %+v", st)
			}
			raw, err := os.ReadFile(failed)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
			if lines[0] != FailedRowsHeader {
				t.Errorf("header %q", lines[0])
			}
			got := map[string]string{}
			for _, l := range lines[1:] {
				f := strings.SplitN(l, "|", 4)
				got[f[0]+":"+f[1]] = f[2]
			}
			for _, w := range wantFailed {
				if r, ok := got[w.file+":"+w.line]; !ok || !strings.Contains(r, w.reason) {
					t.Errorf("failed row %s line %s: reason %q, want %q (all: %v)", w.file, w.line, r, w.reason, got)
				}
			}
			if len(got) != len(wantFailed) {
				t.Errorf("%d failed rows, want %d:\n%s", len(got), len(wantFailed), raw)
			}
			m, err := Inspect(t.Context(), tgt, nil)
			if err != nil || m == nil || m.Persons != 8 || m.Knows != 6 || m.Failed != 9 {
				t.Errorf("Inspect = %+v, %v", m, err)
			}
			fp, _ := Fingerprint(dir)
			if m.Fingerprint != fp {
				t.Errorf("fingerprint %q, want %q", m.Fingerprint, fp)
			}
		})
	}
}

// Loading again without --drop is refused as a usage error naming --drop;
// with Drop the target is reloaded (no duplicates), and a clean load
// removes a stale failed-rows file.
func TestReload(t *testing.T) {
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			ldbctest.Write(t, dir, ldbctest.Tiny)
			tgt := target(t)
			stale := dir + ".failed_rows.csv"
			if strings.HasPrefix(tgt, "sqlite://") {
				stale = strings.TrimPrefix(tgt, "sqlite://") + ".failed_rows.csv"
			}
			os.WriteFile(stale, []byte(FailedRowsHeader+"\nold\n"), 0o644)
			if _, err := Load(t.Context(), Config{Target: tgt, Data: dir}); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(stale); !os.IsNotExist(err) {
				t.Errorf("stale failed-rows file left behind: %v", err)
			}
			_, err := Load(t.Context(), Config{Target: tgt, Data: dir})
			if !errors.Is(err, ErrLoaded) || !usage.Is(err) || !strings.Contains(err.Error(), "--drop") {
				t.Fatalf("second load: %v, want ErrLoaded naming --drop", err)
			}
			st, err := Load(t.Context(), Config{Target: tgt, Data: dir, Drop: true})
			if err != nil {
				t.Fatal(err)
			}
			if st.Meta.Persons != 8 || st.Meta.Knows != 6 {
				t.Errorf("after --drop: %+v", st.Meta)
			}
		})
	}
}

func TestLoadBadInput(t *testing.T) {
	dir := t.TempDir()
	ldbctest.Write(t, dir, ldbctest.Tiny)
	tests := []struct {
		name, target, data, want string
	}{
		{"no data", "sqlite://" + filepath.Join(t.TempDir(), "x.db"), t.TempDir(), "no LDBC data"},
		{"bad url", "::nope", dir, "bad target URL"},
		{"unsupported scheme", "kafka://127.0.0.1:9092", dir, "cannot load into kafka"},
		{"missing sqlite dir", "sqlite:///nonexistent/dir/x.db", dir, "directory"},
		{"unreachable postgres", "postgres://u:hunter2@127.0.0.1:1/db?connect_timeout=2", dir, "cannot connect"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(t.Context(), Config{Target: tc.target, Data: tc.data})
			if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want usage error with %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("password in error: %v", err)
			}
		})
	}
}

// A row the target rejects although it passed validation (PostgreSQL
// refuses a NUL byte in text, which is valid UTF-8; invalid UTF-8 is
// refused on the client, see TestInvalidUTF8Refused) is retried alone and
// reported with the target's message; the rest of its chunk is loaded.
func TestTargetRejectsRow(t *testing.T) {
	dir := t.TempDir()
	ldbctest.Write(t, dir, ldbctest.With(ldbctest.Tiny, map[string][]string{
		ldbcfile.PersonSpeaksLanguagePath: {"3|bad\x00nul", "4|it"},
	}))
	failed := filepath.Join(t.TempDir(), "f.csv")
	tgt := pgtest.Schema(t)
	if _, err := Load(t.Context(), Config{Target: tgt, Data: dir, FailedRows: failed}); !errors.Is(err, ErrRejected) || usage.Is(err) {
		t.Fatalf("a row the target rejects: %v, want ErrRejected (not a usage error)", err)
	}
	if m, err := Inspect(t.Context(), tgt, nil); m != nil || err != nil {
		t.Fatalf("target after a failed load: %+v, %v", m, err)
	}
	st, err := Load(t.Context(), Config{Target: tgt, Data: dir, FailedRows: failed, MaxRejected: Limit{Rows: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range st.Tables {
		if ts.Table == "person_speaks_language" && (ts.Loaded != 4 || ts.Failed != 1) {
			t.Errorf("%+v, want 4 loaded and 1 failed", ts)
		}
	}
	raw, _ := os.ReadFile(failed)
	if !strings.Contains(string(raw), ldbcfile.PersonSpeaksLanguagePath+"|5|rejected by target: ") || !strings.Contains(string(raw), "UTF8") {
		t.Errorf("failed rows:\n%s", raw)
	}
}

// A reload with --drop whose data is bad, or whose load fails at the
// target, leaves the previous load as it was, and no staging area behind.
func TestFailedReloadKeepsPreviousLoad(t *testing.T) {
	good := t.TempDir()
	ldbctest.Write(t, good, ldbctest.Tiny)
	bad := t.TempDir()
	ldbctest.Write(t, bad, ldbctest.Tiny)
	// Every row of the new person file is bad (dates of another format).
	os.WriteFile(filepath.Join(bad, ldbcfile.PersonPath), []byte(ldbcfile.PersonHeader+"\n1|A|B|male|1985-01-02|yesterday|1.2.3.4|Chrome\n"), 0o644)
	wrongHeader := t.TempDir()
	ldbctest.Write(t, wrongHeader, ldbctest.Tiny)
	os.WriteFile(filepath.Join(wrongHeader, ldbcfile.PersonKnowsPersonPath), []byte("a|b\n1|2\n"), 0o644)
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			tgt := target(t)
			if _, err := Load(t.Context(), Config{Target: tgt, Data: good}); err != nil {
				t.Fatal(err)
			}
			for _, dir := range []string{bad, wrongHeader} {
				_, err := Load(t.Context(), Config{Target: tgt, Data: dir, Drop: true, FailedRows: filepath.Join(t.TempDir(), "f.csv")})
				if err == nil {
					t.Fatalf("reload from %s succeeded", dir)
				}
				m, err := Inspect(t.Context(), tgt, nil)
				if err != nil || m == nil || m.Persons != 8 || m.Knows != 6 {
					t.Fatalf("after a failed --drop reload: %+v, %v", m, err)
				}
			}
			// A cancelled reload (Ctrl+C) also keeps it.
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if _, err := Load(ctx, Config{Target: tgt, Data: good, Drop: true}); err == nil {
				t.Fatal("cancelled reload succeeded")
			}
			if m, err := Inspect(t.Context(), tgt, nil); err != nil || m == nil || m.Persons != 8 {
				t.Fatalf("after a cancelled reload: %+v, %v", m, err)
			}
			assertNoStaging(t, tgt)
		})
	}
}

// assertNoStaging fails when a load left a staging schema or file behind.
func assertNoStaging(t *testing.T, tgt string) {
	t.Helper()
	if path, ok := strings.CutPrefix(tgt, "sqlite://"); ok {
		left, _ := filepath.Glob(path + ".loading-*")
		if len(left) > 0 {
			t.Errorf("staging files left: %v", left)
		}
		return
	}
	c, err := pgx.Connect(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(t.Context())
	var n int
	if err := c.QueryRow(t.Context(), "SELECT count(*) FROM pg_namespace WHERE nspname LIKE '"+StagingPrefix+"%'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d staging schemas left", n)
	}
}

// A data set whose knows (or person) file has no valid rows fails to
// load even when --max-rejected would allow the rejected rows.
func TestLoadEmptyGraphFails(t *testing.T) {
	noKnows := t.TempDir()
	ldbctest.Write(t, noKnows, map[string][]string{ldbcfile.PersonPath: ldbctest.Tiny[ldbcfile.PersonPath]})
	noPersons := t.TempDir()
	ldbctest.Write(t, noPersons, map[string][]string{ldbcfile.PersonKnowsPersonPath: ldbctest.Tiny[ldbcfile.PersonKnowsPersonPath]})
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			for dir, want := range map[string]string{noKnows: "person_knows_person_0_0.csv has no rows", noPersons: "has no valid rows"} {
				tgt := target(t)
				_, err := Load(t.Context(), Config{Target: tgt, Data: dir, MaxRejected: Limit{Pct: 100, Percent: true}, FailedRows: filepath.Join(t.TempDir(), "f.csv")})
				if !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), want) {
					t.Errorf("err = %v, want %q", err, want)
				}
				if m, err := Inspect(t.Context(), tgt, nil); m != nil || err != nil {
					t.Errorf("target: %+v, %v", m, err)
				}
			}
		})
	}
}

// A line far over the cap is rejected with its line number; the
// failed-rows file (by default next to the result, never in the data set)
// quotes only a few hundred bytes of it.
func TestLoadLongLine(t *testing.T) {
	dir := t.TempDir()
	ldbctest.Write(t, dir, ldbctest.With(ldbctest.Tiny, map[string][]string{
		ldbcfile.PersonSpeaksLanguagePath: {"3|" + strings.Repeat("x", 3<<20)},
	}))
	db := filepath.Join(t.TempDir(), "g.db")
	st, err := Load(t.Context(), Config{Target: "sqlite://" + db, Data: dir, MaxRejected: Limit{Rows: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if st.FailedRows != db+".failed_rows.csv" || st.Failed != 1 {
		t.Fatalf("stats %+v", st)
	}
	raw, err := os.ReadFile(st.FailedRows)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > 1000 || !strings.Contains(string(raw), ldbcfile.PersonSpeaksLanguagePath+"|5|line of 3145730 bytes is longer than") {
		t.Errorf("failed rows (%d bytes):\n%.600s", len(raw), raw)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() {
			t.Errorf("load wrote %s into the data set", e.Name())
		}
	}
}

// A SQLite file holding tables stampede did not create is never replaced
// (the load is refused), but can still be inspected.
func TestSQLiteForeignTables(t *testing.T) {
	dir := t.TempDir()
	ldbctest.Write(t, dir, ldbctest.Tiny)
	db := filepath.Join(t.TempDir(), "mine.db")
	if _, err := Load(t.Context(), Config{Target: "sqlite://" + db, Data: dir}); err != nil {
		t.Fatal(err)
	}
	c, _ := sql.Open("sqlite", sqlite.DSN(db, false))
	if _, err := c.Exec("CREATE TABLE notes (x TEXT)"); err != nil {
		t.Fatal(err)
	}
	c.Close()
	_, err := Load(t.Context(), Config{Target: "sqlite://" + db, Data: dir, Drop: true})
	if !usage.Is(err) || !strings.Contains(err.Error(), "holds tables stampede did not create (notes)") {
		t.Fatalf("err = %v", err)
	}
	if m, err := Inspect(t.Context(), "sqlite://"+db, nil); err != nil || m == nil || m.Persons != 8 {
		t.Errorf("Inspect = %+v, %v", m, err)
	}
}
