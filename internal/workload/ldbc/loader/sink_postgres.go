package loader

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/postgres"
	"github.com/stampede-bench/stampede/internal/workload"
)

// maintenanceWorkMem is the session maintenance_work_mem for index builds.
const maintenanceWorkMem = "256MB"

// pgSink loads through one connection per writer with COPY (binary
// protocol), several streams at once.
type pgSink struct {
	conns []*pgx.Conn
}

func openPostgres(ctx context.Context, u *url.URL, workers int, getenv func(string) string) (sink, error) {
	cfg, err := postgres.Config(u, getenv)
	if err != nil {
		return nil, workload.Usagef("%v", err)
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
			return nil, workload.Usagef("cannot connect to %s: %v", driver.RedactURL(u), scrubPass(err, cfg.Password))
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

func (s *pgSink) drop(ctx context.Context) error {
	_, err := s.conns[0].Exec(ctx, "DROP TABLE IF EXISTS "+strings.Join(TableNames(), ", "))
	return err
}

// create makes every table in one round trip (a multi-statement simple
// query is one transaction).
func (s *pgSink) create(ctx context.Context) error {
	var stmts []string
	for _, t := range tables() {
		stmts = append(stmts, pgDialect.createSQL(t))
	}
	stmts = append(stmts, metaCreateSQL)
	if _, err := s.conns[0].Exec(ctx, strings.Join(stmts, "; ")); err != nil {
		return fmt.Errorf("create tables: %w", err)
	}
	return nil
}

func (s *pgSink) write(ctx context.Context, w int, t *table, rows [][]any) error {
	_, err := s.conns[w].CopyFrom(ctx, pgx.Identifier{t.name}, t.colNames(), pgx.CopyFromRows(rows))
	return err
}

// index builds the keys and indexes of different tables and the planner
// statistics, each on its own connection, all at once: the builds wait on
// WAL writes as much as on the CPU.
func (s *pgSink) index(ctx context.Context) error {
	var qs []string
	for _, t := range tables() {
		qs = append(qs, pgDialect.indexSQL(t)...)
	}
	// Statistics for the columns the scenarios filter and join on; the
	// other columns and tables are not queried by the built-ins. ANALYZE
	// needs no index, so it runs beside the builds.
	qs = append(qs, "ANALYZE person_knows_person (person1id, person2id)", "ANALYZE person (id)")
	qs = append(qs, analyzeActivitySQL()...)
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
	err := s.conns[0].QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n)
	return n, err
}

func (s *pgSink) putMeta(ctx context.Context, m Meta) error {
	for _, kv := range m.pairs() {
		if _, err := s.conns[0].Exec(ctx, "INSERT INTO "+MetaTable+" (key, value) VALUES ($1, $2)", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

func (s *pgSink) close() error {
	for _, c := range s.conns {
		if c != nil {
			c.Close(context.Background())
		}
	}
	return nil
}
