package loader

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

func TestParseLimit(t *testing.T) {
	tests := []struct {
		in      string
		want    Limit
		str     string
		allowed [2]int64 // of 26 rows and of 1,000,000 rows
		wantErr string
	}{
		{in: "0", want: Limit{}, str: "0", allowed: [2]int64{0, 0}},
		{in: " 9 ", want: Limit{Rows: 9}, str: "9", allowed: [2]int64{9, 9}},
		{in: "34.6%", want: Limit{Pct: 34.6, Percent: true}, str: "34.6%", allowed: [2]int64{8, 346000}},
		{in: "34.7%", want: Limit{Pct: 34.7, Percent: true}, str: "34.7%", allowed: [2]int64{9, 347000}},
		{in: "0.1%", want: Limit{Pct: 0.1, Percent: true}, str: "0.1%", allowed: [2]int64{0, 1000}},
		{in: "100%", want: Limit{Pct: 100, Percent: true}, str: "100%", allowed: [2]int64{26, 1000000}},
		{in: "0%", want: Limit{Percent: true}, str: "0%", allowed: [2]int64{0, 0}},
		{in: "-1", wantErr: `--max-rejected "-1": want a number of rows (0 or more) or a percentage such as 0.1%`},
		{in: "ten", wantErr: `--max-rejected "ten": want a number of rows`},
		{in: "", wantErr: `--max-rejected "": want a number of rows`},
		{in: "101%", wantErr: `--max-rejected "101%": want a number of rows or a percentage from 0% to 100%`},
		{in: "-0.5%", wantErr: "percentage from 0% to 100%"},
		{in: "NaN%", wantErr: "percentage from 0% to 100%"},
		{in: "%", wantErr: "percentage from 0% to 100%"},
	}
	for _, tc := range tests {
		l, err := ParseLimit(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseLimit(%q) = %+v, %v; want error %q", tc.in, l, err, tc.wantErr)
			}
			continue
		}
		if err != nil || l != tc.want || l.String() != tc.str {
			t.Errorf("ParseLimit(%q) = %+v (%s), %v; want %+v (%s)", tc.in, l, l, err, tc.want, tc.str)
		}
		if got := [2]int64{l.Allowed(26), l.Allowed(1_000_000)}; got != tc.allowed {
			t.Errorf("%q allows %v, want %v", tc.in, got, tc.allowed)
		}
	}
}

// --max-rejected at its boundary: the dirty data set has 9 invalid rows of
// 26 read; exactly 9 allowed loads, one fewer is refused before the target
// is touched.
func TestMaxRejectedBoundary(t *testing.T) {
	dir := t.TempDir()
	ldbctest.Write(t, dir, dirty)
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				limit string
				ok    bool
			}{{"0", false}, {"8", false}, {"34.6%", false}, {"9", true}, {"34.7%", true}, {"100%", true}} {
				tgt := target(t)
				lim, err := ParseLimit(tc.limit)
				if err != nil {
					t.Fatal(err)
				}
				failed := filepath.Join(t.TempDir(), "failed.csv")
				st, err := Load(t.Context(), Config{Target: tgt, Data: dir, FailedRows: failed, Workers: 2, MaxRejected: lim})
				if !tc.ok {
					want := "9 of 26 rows are not valid, more than --max-rejected " + tc.limit + " allows (first: "
					if !errors.Is(err, ErrRejected) || !isUsage(err) || !strings.Contains(err.Error(), want) ||
						!strings.Contains(err.Error(), "see "+failed+"; nothing was loaded") {
						t.Errorf("--max-rejected %s: %v, want %q", tc.limit, err, want)
					}
					if m, err := Inspect(t.Context(), tgt, nil); m != nil || err != nil {
						t.Errorf("--max-rejected %s: target holds %+v, %v", tc.limit, m, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("--max-rejected %s: %v", tc.limit, err)
				}
				if st.Failed != 9 || st.Loaded != 17 || st.Meta.Failed != 9 || st.FailedRows != failed {
					t.Errorf("--max-rejected %s: loaded %d failed %d (meta %d) file %q", tc.limit, st.Loaded, st.Failed, st.Meta.Failed, st.FailedRows)
				}
			}
		})
	}
}

// A clean load: the statistics, the recorded meta, the rows in the target,
// and no failed-rows file.
func TestLoadStatsAndMeta(t *testing.T) {
	dir := t.TempDir()
	ldbctest.Write(t, dir, ldbctest.Tiny)
	abs, _ := filepath.Abs(dir)
	fp, err := Fingerprint(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			tgt := target(t)
			failed := filepath.Join(t.TempDir(), "failed.csv")
			before := time.Now().Truncate(time.Second)
			st, err := Load(t.Context(), Config{Target: tgt, Data: dir, FailedRows: failed})
			if err != nil {
				t.Fatal(err)
			}
			if st.Tables[0].Table != PersonTable || st.Tables[1].Table != KnowsTable ||
				st.Tables[0].File != ldbcfile.PersonPath || st.Tables[1].File != ldbcfile.PersonKnowsPersonPath {
				t.Errorf("first tables %+v %+v", st.Tables[0], st.Tables[1])
			}
			var sum int64
			loaded := map[string]int64{}
			for _, ts := range st.Tables {
				sum += ts.Loaded
				loaded[ts.Table] = ts.Loaded
				if ts.Failed != 0 {
					t.Errorf("%+v failed rows", ts)
				}
			}
			if sum != st.Loaded || st.Loaded != 8+6+3 || st.Failed != 0 || st.FailedRows != "" ||
				loaded[PersonTable] != 8 || loaded[KnowsTable] != 6 || loaded["person_speaks_language"] != 3 {
				t.Errorf("stats: loaded %d (tables %v) failed %d file %q", st.Loaded, loaded, st.Failed, st.FailedRows)
			}
			if _, err := os.Stat(failed); !os.IsNotExist(err) {
				t.Errorf("failed-rows file written for a clean load: %v", err)
			}
			if st.Elapsed < st.Validate+st.Rows+st.Index+st.Verify || st.Validate <= 0 || st.Rows <= 0 {
				t.Errorf("timings: elapsed %v validate %v rows %v index %v verify %v", st.Elapsed, st.Validate, st.Rows, st.Index, st.Verify)
			}
			want := Meta{Fingerprint: fp, Persons: 8, Knows: 6, Data: abs, MaxPersonID: 8, Layout: "CsvBasic"}
			got := st.Meta
			if got.LoadedAt.Before(before) || time.Since(got.LoadedAt) > time.Minute {
				t.Errorf("loaded at %v", got.LoadedAt)
			}
			got.LoadedAt = time.Time{}
			if got != want {
				t.Errorf("meta %+v\nwant %+v", got, want)
			}
			m, err := Inspect(t.Context(), tgt, nil)
			if err != nil || m == nil {
				t.Fatalf("Inspect = %v, %v", m, err)
			}
			if !m.LoadedAt.Equal(st.Meta.LoadedAt.Truncate(time.Second)) {
				t.Errorf("recorded load time %v, want %v", m.LoadedAt, st.Meta.LoadedAt)
			}
			m.LoadedAt = time.Time{}
			if *m != want {
				t.Errorf("recorded meta %+v\nwant %+v", *m, want)
			}
			rows := dump(t, tgt) + "\n"
			// PostgreSQL has date and timestamp columns; SQLite keeps
			// the file's text.
			date, ts, knowsTS := "1985-01-02T00:00:00Z", "2011-02-03T04:05:06.789Z", "2012-01-01T00:00:00Z"
			if name == "sqlite" {
				date, ts, knowsTS = "1985-01-02", "2011-02-03T04:05:06.789+0000", "2012-01-01T00:00:00.000+0000"
			}
			for _, line := range []string{
				"person|1|First1|Last|female|" + date + "|" + ts + "|10.0.0.1|Firefox",
				"person|8|First8|Last|male|" + date + "|" + ts + "|10.0.0.8|Firefox",
				"person_knows_person|6|7|" + knowsTS,
				"person_speaks_language|2|de",
			} {
				if !strings.Contains(rows, line+"\n") {
					t.Errorf("target lacks row %q:\n%s", line, rows)
				}
			}
			assertNoStaging(t, tgt)
		})
	}
}

// A target holding loader tables without a completed load (no meta table)
// is reported as incomplete, refused without Drop and left untouched; with
// Drop it is replaced.
func TestIncompleteTargetNeedsDrop(t *testing.T) {
	dir := t.TempDir()
	ldbctest.Write(t, dir, ldbctest.Tiny)
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			tgt := target(t)
			exec, count := targetSQL(t, tgt)
			exec("CREATE TABLE person (id BIGINT, note TEXT)")
			exec("INSERT INTO person VALUES (42, 'mine')")
			if m, err := Inspect(t.Context(), tgt, nil); m != nil || !errors.Is(err, ErrIncomplete) {
				t.Fatalf("Inspect = %+v, %v; want ErrIncomplete", m, err)
			}
			_, err := Load(t.Context(), Config{Target: tgt, Data: dir})
			if !errors.Is(err, ErrLoaded) || !isUsage(err) ||
				!strings.Contains(err.Error(), "holds an incomplete or foreign load (no stampede_meta); use --drop to replace it (the current load stays until the new one has verified)") {
				t.Fatalf("load over an incomplete target: %v", err)
			}
			if n := count("SELECT count(*) FROM person WHERE id = 42"); n != 1 {
				t.Fatalf("refused load changed the target: %d rows", n)
			}
			if _, err := Load(t.Context(), Config{Target: tgt, Data: dir, Drop: true}); err != nil {
				t.Fatal(err)
			}
			if n := count("SELECT count(*) FROM person"); n != 8 {
				t.Errorf("after --drop: %d persons", n)
			}
			// A complete load is refused with what it holds.
			_, err = Load(t.Context(), Config{Target: tgt, Data: dir})
			if !errors.Is(err, ErrLoaded) || !strings.Contains(err.Error(), "holds 8 persons and 6 knows loaded "+time.Now().UTC().Format("2006-01-02")) {
				t.Errorf("load over a complete target: %v", err)
			}
		})
	}
}

// isUsage reports whether err is a usage error (exit code 2).
func isUsage(err error) bool { return usage.Is(err) }

// targetSQL returns helpers running SQL on a test target.
func targetSQL(t *testing.T, tgt string) (exec func(string), count func(string) int64) {
	t.Helper()
	if path, ok := strings.CutPrefix(tgt, "sqlite://"); ok {
		// A connection a call: a load with Drop swaps in a new file.
		open := func() *sql.DB {
			db, err := sql.Open("sqlite", sqlite.DSN(path, true))
			if err != nil {
				t.Fatal(err)
			}
			return db
		}
		return func(q string) {
				db := open()
				defer db.Close()
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}, func(q string) int64 {
				db := open()
				defer db.Close()
				var n int64
				if err := db.QueryRow(q).Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
	}
	c, err := pgx.Connect(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(t.Context()) })
	return func(q string) {
			if _, err := c.Exec(t.Context(), q); err != nil {
				t.Fatal(err)
			}
		}, func(q string) int64 {
			var n int64
			if err := c.QueryRow(t.Context(), q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
}

// The failed-rows file may not be inside the data set; the default one is
// next to the SQLite file or next to the data set.
func TestFailedRowsPath(t *testing.T) {
	data := filepath.Join(t.TempDir(), "sf1")
	tests := []struct {
		name, target, failed, want, wantErr string
	}{
		{"sqlite default", "sqlite:///tmp/x/g.db", "", "/tmp/x/g.db.failed_rows.csv", ""},
		{"postgres default", "postgres://u@127.0.0.1/db", "", data + ".failed_rows.csv", ""},
		{"given", "postgres://u@127.0.0.1/db", "/tmp/f.csv", "/tmp/f.csv", ""},
		{"inside data", "sqlite:///tmp/x/g.db", filepath.Join(data, "sub", "f.csv"), "", "is inside the data set"},
		{"the data set itself", "sqlite:///tmp/x/g.db", data, "", "is inside the data set"},
		{"sibling with a common prefix", "sqlite:///tmp/x/g.db", data + "-failed.csv", data + "-failed.csv", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := failedRowsPath(Config{Target: tc.target, Data: data, FailedRows: tc.failed})
			if tc.wantErr != "" {
				if err == nil || !isUsage(err) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("failedRowsPath = %q, %v; want usage error %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("failedRowsPath = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	// Through Load: refused before the target is created.
	ldbctest.Write(t, data, ldbctest.Tiny)
	db := filepath.Join(t.TempDir(), "g.db")
	_, err := Load(t.Context(), Config{Target: "sqlite://" + db, Data: data, FailedRows: filepath.Join(data, "f.csv")})
	if !isUsage(err) {
		t.Errorf("Load with failed rows inside the data: %v", err)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("target created by a refused load: %v", err)
	}
}

// The fingerprint names sizes and CRC-32C of the person and knows files:
// it changes with their content and nothing else.
func TestFingerprint(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	ldbctest.Write(t, a, ldbctest.Tiny)
	ldbctest.Write(t, b, ldbctest.Tiny)
	fa, err := Fingerprint(a)
	if err != nil {
		t.Fatal(err)
	}
	if parts := strings.Split(fa, ","); len(parts) != 2 || !strings.Contains(parts[0], ":") {
		t.Errorf("fingerprint %q, want SIZE:CRC,SIZE:CRC", fa)
	}
	if fb, _ := Fingerprint(b); fb != fa {
		t.Errorf("same data, fingerprints %q and %q", fa, fb)
	}
	os.WriteFile(filepath.Join(b, ldbcfile.PersonSpeaksLanguagePath), []byte("personId|language\n1|xx\n"), 0o644)
	if fb, _ := Fingerprint(b); fb != fa {
		t.Errorf("another file changed the fingerprint: %q vs %q", fb, fa)
	}
	knows := filepath.Join(b, ldbcfile.PersonKnowsPersonPath)
	raw, _ := os.ReadFile(knows)
	os.WriteFile(knows, []byte(strings.Replace(string(raw), "2012", "2013", 1)), 0o644)
	if fb, _ := Fingerprint(b); fb == fa || fb[:strings.IndexByte(fb, ',')] != fa[:strings.IndexByte(fa, ',')] {
		t.Errorf("a same-size change to knows: %q vs %q", fb, fa)
	}
	if _, err := Fingerprint(t.TempDir()); err == nil || !strings.HasPrefix(err.Error(), "fingerprint:") {
		t.Errorf("empty dir: %v", err)
	}
}

// A person file with invalid UTF-8 is refused on the client, before the
// target is touched, with the file and line — for SQLite as for
// PostgreSQL.
func TestInvalidUTF8Refused(t *testing.T) {
	data := ldbctest.With(ldbctest.Tiny, map[string][]string{
		ldbcfile.PersonPath: {"77|Ren\xe9|Latin|male|1985-01-02|2011-02-03T04:05:06.789+0000|1.2.3.4|Chrome"},
	})
	dir := t.TempDir()
	ldbctest.Write(t, dir, data)
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			tgt := target(t)
			_, err := Load(t.Context(), Config{Target: tgt, Data: dir, FailedRows: filepath.Join(t.TempDir(), "failed.csv"), Workers: 2})
			if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "not valid UTF-8") ||
				!strings.Contains(err.Error(), ldbcfile.PersonPath+" line ") || !strings.Contains(err.Error(), "nothing was loaded") {
				t.Fatalf("err = %v, want a usage error naming %s:LINE and invalid UTF-8", err, ldbcfile.PersonPath)
			}
			if strings.Count(err.Error(), "\n") != 0 {
				t.Errorf("more than one line: %q", err)
			}
			if m, err := Inspect(t.Context(), tgt, nil); m != nil || err != nil {
				t.Errorf("target holds %+v, %v", m, err)
			}
		})
	}
}
