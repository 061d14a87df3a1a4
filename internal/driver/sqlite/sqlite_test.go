package sqlite

import (
	"context"
	"database/sql"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
)

func TestPath(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"sqlite:///abs/dir/x.db", "/abs/dir/x.db"},
		{"sqlite://x.db", "x.db"},
		{"sqlite://dir/x.db", "dir/x.db"},
		{"sqlite:x.db", "x.db"},
	}
	for _, tc := range tests {
		u, err := url.Parse(tc.raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := Path(u); got != tc.want {
			t.Errorf("Path(%s) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

// newDB creates a database with table t(id) holding n rows and opens it.
func newDB(t *testing.T, n int, opts driver.Options) *DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	raw, err := sql.Open("sqlite", DSN(path, true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`create table t(id integer primary key, v text)`); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := raw.Exec(`insert into t(id, v) values (?, 'x')`, i+1); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	u, _ := url.Parse(URL(path))
	d, err := Open(t.Context(), u, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d.(*DB)
}

func TestDo(t *testing.T) {
	d := newDB(t, 10, driver.Options{PoolSize: 2})
	c, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tests := []struct {
		name     string
		op       driver.Op
		wantRows int64
		wantErr  string
	}{
		{"select counts rows", driver.Op{Query: "select id from t where id <= $1", Args: []any{int64(4)}}, 4, ""},
		{"numbered placeholders", driver.Op{Query: "select id from t where id between ?1 and ?2", Args: []any{int64(2), int64(3)}}, 2, ""},
		{"cte", driver.Op{Query: "with x as (select id from t) select * from x"}, 10, ""},
		{"update counts changes", driver.Op{Query: "update t set v = 'y' where id > $1", Args: []any{int64(7)}}, 3, ""},
		{"insert", driver.Op{Query: "insert into t(id, v) values ($1, 'z'), ($2, 'z')", Args: []any{int64(100), int64(101)}}, 2, ""},
		{"insert returning", driver.Op{Query: "insert into t(id, v) values ($1, 'z') returning id", Args: []any{int64(102)}}, 1, ""},
		{"duplicate key", driver.Op{Query: "insert into t(id, v) values ($1, 'z')", Args: []any{int64(1)}}, 0, "UNIQUE constraint failed"},
		{"syntax error", driver.Op{Query: "selec 1"}, 0, "syntax error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := c.Do(t.Context(), &tc.op)
			if tc.wantErr != "" {
				if res.Err == nil || !strings.Contains(res.Err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", res.Err, tc.wantErr)
				}
				return
			}
			if res.Err != nil || res.Rows != tc.wantRows {
				t.Fatalf("Do = %d rows, %v; want %d rows", res.Rows, res.Err, tc.wantRows)
			}
		})
	}
	var got int64
	res := c.(*Conn).DoScan(t.Context(), &driver.Op{Query: "select count(*) from t"}, &got)
	if res.Err != nil || res.Rows != 1 || got != 13 {
		t.Errorf("DoScan = %d (rows %d, %v), want 13", got, res.Rows, res.Err)
	}
	// Every statement that prepared is cached (not the syntax error).
	if len(c.(*Conn).stmts) != len(tests) {
		t.Errorf("%d cached statements, want %d", len(c.(*Conn).stmts), len(tests))
	}
	v, err := d.Version(t.Context())
	if err != nil || !strings.HasPrefix(v, "SQLite 3.") {
		t.Errorf("Version = %q, %v", v, err)
	}
}

func TestTimeout(t *testing.T) {
	d := newDB(t, 1, driver.Options{PoolSize: 1, Timeout: 50 * time.Millisecond})
	c, err := d.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// An endless recursive query is interrupted by the timeout.
	res := c.Do(t.Context(), &driver.Op{Query: "with recursive r(n) as (select 1 union all select n+1 from r) select count(*) from r"})
	if res.Err == nil || res.Err.Error() != "timeout after 50ms" {
		t.Fatalf("err = %v, want timeout after 50ms", res.Err)
	}
	// A cancelled run context is reported as such, not as a failure.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res = c.Do(ctx, &driver.Op{Query: "select 1"})
	if res.Err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", res.Err)
	}
}

// Concurrent writers queue on SQLite's single write lock instead of
// failing with "database is locked".
func TestConcurrentWritersSerialize(t *testing.T) {
	const vus, each = 8, 25
	d := newDB(t, 0, driver.Options{PoolSize: vus})
	var wg sync.WaitGroup
	errs := make(chan error, vus*each)
	for v := range vus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := d.Conn(t.Context())
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			for i := range each {
				res := c.Do(t.Context(), &driver.Op{Query: "insert into t(id, v) values ($1, 'w')", Args: []any{int64(v*1000 + i)}})
				if res.Err != nil {
					errs <- res.Err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var n int
	if err := d.SQL().QueryRow("select count(*) from t").Scan(&n); err != nil || n != vus*each {
		t.Errorf("count = %d, %v; want %d", n, err, vus*each)
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"sqlite://" + filepath.Join(t.TempDir(), "missing.db"), "no such file"},
		{"sqlite://", "names no file"},
	}
	for _, tc := range tests {
		u, _ := url.Parse(tc.raw)
		_, err := Open(t.Context(), u, driver.Options{PoolSize: 1})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s) = %v, want %q", tc.raw, err, tc.want)
		}
	}
}

func BenchmarkDoPointQuery(b *testing.B) {
	path := filepath.Join(b.TempDir(), "b.db")
	raw, _ := sql.Open("sqlite", DSN(path, true))
	raw.Exec(`create table t(id integer primary key, v text)`)
	raw.Exec(`with recursive s(n) as (select 1 union all select n+1 from s where n < 1000) insert into t select n, 'x' from s`)
	raw.Close()
	u, _ := url.Parse(URL(path))
	d, err := Open(b.Context(), u, driver.Options{PoolSize: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	c, _ := d.Conn(b.Context())
	defer c.Close()
	op := &driver.Op{Query: "select v from t where id = $1", Args: []any{int64(7)}}
	b.ReportAllocs()
	for b.Loop() {
		if res := c.Do(b.Context(), op); res.Err != nil || res.Rows != 1 {
			b.Fatal(res.Err)
		}
	}
}
