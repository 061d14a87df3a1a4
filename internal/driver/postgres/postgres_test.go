package postgres

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/postgres/pgtest"
)

func open(t *testing.T, raw string, opts driver.Options) *DB {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(t.Context(), u, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d.(*DB)
}

func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{"PGUSER": "envuser", "PGPASSWORD": "envpw", "PGHOST": "db.example", "PGPORT": "6543", "PGDATABASE": "envdb"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		raw                        string
		user, pass, host, database string
		port                       uint16
	}{
		{"postgres://", "envuser", "envpw", "db.example", "envdb", 6543},
		{"postgres://u:p@h:1/d", "u", "p", "h", "d", 1},
		{"postgres://u@h/d", "u", "envpw", "h", "d", 5432},
	}
	for _, tc := range tests {
		u, _ := url.Parse(tc.raw)
		c, err := Config(u, getenv)
		if err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		if c.User != tc.user || c.Password != tc.pass || c.Host != tc.host || c.Database != tc.database || c.Port != tc.port {
			t.Errorf("%s: got %s:%s@%s:%d/%s", tc.raw, c.User, c.Password, c.Host, c.Port, c.Database)
		}
	}
}

// Connection failures name the target without its password.
func TestUnreachableRedacted(t *testing.T) {
	u, _ := url.Parse("postgres://someone:s3cret-pw@127.0.0.1:1/db?sslmode=disable&connect_timeout=2")
	_, err := Open(t.Context(), u, driver.Options{PoolSize: 1})
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	if strings.Contains(err.Error(), "s3cret-pw") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("error %q: want the address and no password", err)
	}
}

func TestDo(t *testing.T) {
	d := open(t, pgtest.Schema(t), driver.Options{PoolSize: 2, Timeout: 2 * time.Second})
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
		{"create", driver.Op{Query: "create table t(id bigint primary key, v text)"}, 0, ""},
		{"insert counts changes", driver.Op{Query: "insert into t select g, 'x' from generate_series(1, $1::int) g", Args: []any{int64(10)}}, 10, ""},
		{"select counts rows", driver.Op{Query: "select id from t where id <= $1", Args: []any{int64(4)}}, 4, ""},
		{"update", driver.Op{Query: "update t set v = 'y' where id > $1", Args: []any{int64(7)}}, 3, ""},
		{"duplicate key", driver.Op{Query: "insert into t values ($1, 'z')", Args: []any{int64(1)}}, 0, "duplicate key value violates unique constraint"},
		{"timeout", driver.Op{Query: "select pg_sleep(5)"}, 0, "timeout after 2s"},
		{"works after a timeout", driver.Op{Query: "select 1"}, 1, ""},
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
	var n int64
	if res := c.(*Conn).DoScan(t.Context(), &driver.Op{Query: "select count(*) from t"}, &n); res.Err != nil || n != 10 {
		t.Errorf("DoScan = %d, %v; want 10", n, res.Err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if res := c.Do(ctx, &driver.Op{Query: "select 1"}); res.Err != context.Canceled {
		t.Errorf("cancelled run: err = %v, want context.Canceled", res.Err)
	}
	if v, err := d.Version(t.Context()); err != nil || !strings.HasPrefix(v, "PostgreSQL ") {
		t.Errorf("Version = %q, %v", v, err)
	}
}

// The pool never opens more than PoolSize connections at once.
func TestPoolBound(t *testing.T) {
	d := open(t, pgtest.URL(t), driver.Options{PoolSize: 2})
	var wg sync.WaitGroup
	var conns []driver.Conn
	var mu sync.Mutex
	for range 2 {
		c, err := d.Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	wg.Add(1)
	go func() {
		defer wg.Done()
		if c, err := d.Conn(ctx); err == nil {
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			t.Error("a third connection opened with PoolSize 2")
		}
	}()
	wg.Wait()
	for _, c := range conns {
		c.Close()
	}
}
