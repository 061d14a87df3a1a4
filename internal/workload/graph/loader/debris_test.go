package loader

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/nospace/nospacetest"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

// killedStage leaves what a load killed after staging leaves: the staging
// area with its tables, no lock held (the kernel or the server released
// it with the process). It returns the staging area's name.
func killedStage(t *testing.T, target string) string {
	t.Helper()
	u, _ := url.Parse(target)
	var s sink
	var err error
	if u.Scheme == "sqlite" {
		s, err = openSQLite(t.Context(), u)
	} else {
		s, err = openPostgres(t.Context(), u, 1, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := s.stage(t.Context()); err != nil {
		t.Fatal(err)
	}
	switch s := s.(type) {
	case *sqliteSink:
		s.conn.ExecContext(t.Context(), "INSERT INTO person (id) VALUES (1)")
		s.closeDB()
		s.lock.Unlock()
		os.WriteFile(s.tmp+"-wal", []byte("x"), 0o644)
		os.WriteFile(s.tmp+"-shm", []byte("x"), 0o644)
		return s.tmp
	case *pgSink:
		name := s.staging
		for _, c := range s.conns {
			c.Close(context.Background()) // the session ends: its lock goes
		}
		return name
	}
	panic("unknown sink")
}

// TestLoadRemovesKilledLoadsStaging: the next load removes what a killed
// load left (PostgreSQL schema; SQLite file with -wal/-shm) and says so; a
// running load's staging area and anything the loader did not make stay.
func TestLoadRemovesKilledLoadsStaging(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			tgt := target(t)
			dead := killedStage(t, tgt)
			// A load running now: staged and holding its lock.
			u, _ := url.Parse(tgt)
			var running sink
			var err error
			if name == "sqlite" {
				running, err = openSQLite(t.Context(), u)
			} else {
				running, err = openPostgres(t.Context(), u, 1, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer running.close()
			if err := running.stage(t.Context()); err != nil {
				t.Fatal(err)
			}
			var notUs string
			if name == "sqlite" {
				// A file of the user's that only has the name.
				notUs = sqlite.Path(u) + ".loading-42"
				db, _ := sql.Open("sqlite", sqlite.DSN(notUs, true))
				if _, err := db.Exec("CREATE TABLE mine (x)"); err != nil {
					t.Fatal(err)
				}
				db.Close()
			}
			var notes []string
			if _, err := Load(t.Context(), Config{Target: tgt, Data: data, Note: func(s string) { notes = append(notes, s) }}); err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(notes, "\n")
			if !strings.Contains(joined, "removed ") || !strings.Contains(joined, dead) || !strings.Contains(joined, "killed") {
				t.Errorf("notes do not say %s was removed:\n%s", dead, joined)
			}
			switch r := running.(type) {
			case *sqliteSink:
				for _, p := range []string{dead, dead + "-wal", dead + "-shm"} {
					if _, err := os.Stat(p); !os.IsNotExist(err) {
						t.Errorf("%s is still there (%v)", p, err)
					}
				}
				for _, p := range []string{r.tmp, notUs} {
					if _, err := os.Stat(p); err != nil {
						t.Errorf("removed %s, which is not debris: %v", p, err)
					}
				}
				if names(joined, r.tmp) || names(joined, notUs) {
					t.Errorf("notes name what was kept:\n%s", joined)
				}
			case *pgSink:
				schemas := pgSchemas(t, r.conns[0])
				if schemas[dead] {
					t.Errorf("schema %s is still there", dead)
				}
				if !schemas[r.staging] {
					t.Errorf("the running load's schema %s was dropped", r.staging)
				}
			}
		})
	}
}

func pgSchemas(t *testing.T, c *pgx.Conn) map[string]bool {
	rows, err := c.Query(t.Context(), "SELECT nspname::text FROM pg_namespace")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	var n string
	pgx.ForEachRow(rows, []any{&n}, func() error { out[n] = true; return nil })
	return out
}

// TestSQLiteDebrisOnlyNextToTheTarget: staging files of other targets in
// the same directory are not this load's business.
func TestSQLiteDebrisOnlyNextToTheTarget(t *testing.T) {
	dir := t.TempDir()
	other := killedStage(t, "sqlite://"+filepath.Join(dir, "other.db"))
	u, _ := url.Parse("sqlite://" + filepath.Join(dir, "g.db"))
	s, err := openSQLite(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	removed, err := s.removeDebris(t.Context())
	if err != nil || len(removed) != 0 {
		t.Errorf("removed %v, %v", removed, err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Error(err)
	}
}

// TestLoadFullDisk: a SQLite load on a full disk stops at once with "no
// space left", leaves no staging file, and claims no failed-rows file.
func TestLoadFullDisk(t *testing.T) {
	data := t.TempDir()
	if _, err := datagen.Generate(t.Context(), datagen.Config{SF: 0.05, Out: data, Seed: 1, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, free := range []int64{300 << 10, 3 << 20} {
		t.Run(byteSize(free), func(t *testing.T) { loadFullDisk(t, data, free) })
	}
}

func loadFullDisk(t *testing.T, data string, free int64) {
	disk := nospacetest.Mount(t, 8<<20)
	nospacetest.Fill(t, disk, free)
	failed := filepath.Join(disk, "g.failed_rows.csv")
	start := time.Now()
	_, err := Load(t.Context(), Config{Target: "sqlite://" + filepath.Join(disk, "g.db"), Data: data, FailedRows: failed, MaxRejected: Limit{}})
	took := time.Since(start)
	t.Logf("%s: %v", took, err)
	if err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("err = %v, want no space left", err)
	}
	if strings.Contains(err.Error(), "see "+failed) {
		t.Errorf("claims the failed-rows file: %v", err)
	}
	if took > 20*time.Second {
		t.Errorf("took %s to report the full disk", took)
	}
	entries, _ := os.ReadDir(disk)
	for _, e := range entries {
		if e.Name() != "filler" {
			t.Errorf("left %s on the full disk", e.Name())
		}
	}
}

// names tells that notes name path itself, not only a longer name it
// begins (the killed load's "g.db.loading-4272409273" begins with the
// user's "g.db.loading-42").
func names(notes, path string) bool {
	for rest := notes; ; {
		i := strings.Index(rest, path)
		if i < 0 {
			return false
		}
		rest = rest[i+len(path):]
		if rest == "" || !unicode.IsDigit(rune(rest[0])) {
			return true
		}
	}
}
