package loader

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stampede-bench/stampede/internal/driver/postgres"
	"github.com/stampede-bench/stampede/internal/redact"
	"github.com/stampede-bench/stampede/internal/usage"
)

// maintenanceWorkMem is the session maintenance_work_mem for index builds.
const maintenanceWorkMem = "256MB"

// pgSink loads through one connection per writer with COPY (binary
// protocol), several streams at once.
type pgSink struct {
	conns   []*pgx.Conn
	staging string // the staging schema, "" when there is none
}

func openPostgres(ctx context.Context, u *url.URL, workers int, getenv func(string) string) (sink, error) {
	cfg, err := postgres.Config(u, getenv)
	if err != nil {
		return nil, usage.Errorf("%v", err)
	}
	// Connect all writers at once (each login costs a SCRAM exchange).
	// synchronous_commit=off: a COPY's commit does not wait for the WAL
	// flush; a crash can lose the last commits, but then stampede_meta,
	// written last, is missing too and the load is redone.
	cfg.RuntimeParams["synchronous_commit"] = "off"
	s := &pgSink{conns: make([]*pgx.Conn, max(workers, 1))}
	errs := make([]error, len(s.conns))
	var wg sync.WaitGroup
	for i := range s.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.conns[i], errs[i] = pgx.ConnectConfig(ctx, cfg)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			s.close()
			return nil, usage.Errorf("cannot connect to %s: %v", redact.ParsedURL(u), scrubPass(postgres.Cause(err), cfg.Password))
		}
	}
	return s, nil
}

func (s *pgSink) writers() int   { return len(s.conns) }
func (s *pgSink) wantTime() bool { return true }

func (s *pgSink) inspect(ctx context.Context) (map[string]string, bool, error) {
	c := s.conns[0]
	rows, err := c.Query(ctx, "SELECT c.relname::text FROM pg_class c WHERE c.relname = ANY($1) AND c.relkind IN ('r', 'p') AND pg_table_is_visible(c.oid)", TableNames())
	if err != nil {
		return nil, false, err
	}
	var name string
	found, hasMeta := false, false
	_, err = pgx.ForEachRow(rows, []any{&name}, func() error {
		found = true
		hasMeta = hasMeta || name == MetaTable
		return nil
	})
	if err != nil || !hasMeta {
		return nil, found, err
	}
	rows, err = c.Query(ctx, "SELECT key, value FROM "+MetaTable)
	if err != nil {
		return nil, found, err
	}
	kv := map[string]string{}
	var k, v string
	_, err = pgx.ForEachRow(rows, []any{&k, &v}, func() error { kv[k] = v; return nil })
	return kv, found, err
}

// stage creates a new schema and every table in it, in one round trip
// (a multi-statement simple query is one transaction). The rows go there;
// swap moves the tables into the target schema.
func (s *pgSink) stage(ctx context.Context) error {
	var b [6]byte
	rand.Read(b[:])
	name := StagingPrefix + hex.EncodeToString(b[:])
	// The session holds this lock until it ends: a schema whose lock is
	// free belongs to a load that was killed (removeDebris).
	if _, err := s.conns[0].Exec(ctx, "SELECT pg_advisory_lock($1)", stagingLockKey(name)); err != nil {
		return fmt.Errorf("lock the staging schema: %w", err)
	}
	s.staging = name
	q := s.q()
	stmts := []string{"CREATE SCHEMA " + s.staging, "COMMENT ON SCHEMA " + s.staging + " IS '" + stagingComment + "'"}
	for _, t := range tables() {
		stmts = append(stmts, pgDialect.createSQL(t, q))
	}
	stmts = append(stmts, metaCreateSQL(q))
	if _, err := s.conns[0].Exec(ctx, strings.Join(stmts, "; ")); err != nil {
		s.staging = ""
		return fmt.Errorf("create staging schema: %w", err)
	}
	return nil
}

// StagingPrefix starts the name of the schema a PostgreSQL load stages its
// tables in (followed by 12 hex digits); it is dropped after the swap or a
// failure.
const StagingPrefix = "stampede_staging_"

// q qualifies table names with the staging schema.
func (s *pgSink) q() string { return s.staging + "." }

// swap replaces the loader tables of the target schema (the connection's
// current_schema()) with the staged ones in one transaction: other
// sessions see the old load or the new one, never a mix.
func (s *pgSink) swap(ctx context.Context) error {
	c := s.conns[0]
	tx, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var target *string
	if err := tx.QueryRow(ctx, "SELECT current_schema()").Scan(&target); err != nil {
		return err
	}
	if target == nil {
		return fmt.Errorf("no schema to load into: the search_path names no existing schema")
	}
	ts := pgx.Identifier{*target}.Sanitize()
	for _, n := range TableNames() {
		if _, err := tx.Exec(ctx, "DROP TABLE IF EXISTS "+ts+"."+n); err != nil {
			return fmt.Errorf("replace %s: %w", n, err)
		}
		if _, err := tx.Exec(ctx, "ALTER TABLE "+s.q()+n+" SET SCHEMA "+ts); err != nil {
			return fmt.Errorf("replace %s: %w", n, err)
		}
	}
	if _, err := tx.Exec(ctx, "DROP SCHEMA "+s.staging); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	s.staging = ""
	return nil
}

// abort drops the staging schema after a failure (also after Ctrl+C: it
// runs without the load's context, for at most 30 s).
func (s *pgSink) abort() {
	if s.staging == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, c := range s.conns {
		if c == nil || c.IsClosed() {
			continue
		}
		if _, err := c.Exec(ctx, "DROP SCHEMA IF EXISTS "+s.staging+" CASCADE"); err == nil {
			break
		}
	}
	s.staging = ""
}

func (s *pgSink) write(ctx context.Context, w int, t *table, rows [][]any) error {
	_, err := s.conns[w].CopyFrom(ctx, pgx.Identifier{s.staging, t.name}, t.colNames(), pgx.CopyFromRows(rows))
	return err
}

// index builds the keys and indexes of different tables and the planner
// statistics, each on its own connection, all at once: the builds wait on
// WAL writes as much as on the CPU.
func (s *pgSink) index(ctx context.Context) error {
	var qs []string
	for _, t := range tables() {
		qs = append(qs, pgDialect.indexSQL(t, s.q())...)
	}
	// Statistics for the columns the scenarios filter and join on; the
	// other columns and tables are not queried by the built-ins. ANALYZE
	// needs no index, so it runs beside the builds.
	qs = append(qs, "ANALYZE "+s.q()+"person_knows_person (person1id, person2id)", "ANALYZE "+s.q()+"person (id)")
	qs = append(qs, analyzeActivitySQL(s.q())...)
	work := make(chan string)
	errs := make([]error, len(s.conns))
	var wg sync.WaitGroup
	for i, c := range s.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Sorting for the index builds in memory is the main cost.
			if _, err := c.Exec(ctx, "SET maintenance_work_mem = '"+maintenanceWorkMem+"'"); err != nil {
				errs[i] = err
			}
			for q := range work {
				if errs[i] != nil {
					continue
				}
				if _, err := c.Exec(ctx, q); err != nil {
					errs[i] = fmt.Errorf("%s: %w", q, err)
				}
			}
		}()
	}
	for _, q := range qs {
		work <- q
	}
	close(work)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *pgSink) count(ctx context.Context, table string) (int64, error) {
	var n int64
	err := s.conns[0].QueryRow(ctx, "SELECT count(*) FROM "+s.q()+table).Scan(&n)
	return n, err
}

func (s *pgSink) putMeta(ctx context.Context, m Meta) error {
	for _, kv := range m.pairs() {
		if _, err := s.conns[0].Exec(ctx, "INSERT INTO "+s.q()+MetaTable+" (key, value) VALUES ($1, $2)", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

func (s *pgSink) close() error {
	s.abort()
	for _, c := range s.conns {
		if c != nil {
			c.Close(context.Background())
		}
	}
	return nil
}
