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
	s := &pgSink{}
	for range max(workers, 1) {
		c, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			s.close()
			return nil, workload.Usagef("cannot connect to %s: %v", driver.RedactURL(u), scrubPass(err, cfg.Password))
		}
		s.conns = append(s.conns, c)
	}
	return s, nil
}

func (s *pgSink) writers() int   { return len(s.conns) }
func (s *pgSink) wantTime() bool { return true }

func (s *pgSink) inspect(ctx context.Context) (map[string]string, bool, error) {
	c := s.conns[0]
	found := false
	hasMeta := false
	for _, n := range TableNames() {
		var reg *string
		if err := c.QueryRow(ctx, "SELECT to_regclass($1)::text", n).Scan(&reg); err != nil {
			return nil, false, err
		}
		if reg != nil {
			found = true
			hasMeta = hasMeta || n == MetaTable
		}
	}
	if !hasMeta {
		return nil, found, nil
	}
	rows, err := c.Query(ctx, "SELECT key, value FROM "+MetaTable)
	if err != nil {
		return nil, found, err
	}
	kv := map[string]string{}
	var k, v string
	_, err = pgx.ForEachRow(rows, []any{&k, &v}, func() error { kv[k] = v; return nil })
	return kv, found, err
}

func (s *pgSink) drop(ctx context.Context) error {
	for _, n := range TableNames() {
		if _, err := s.conns[0].Exec(ctx, "DROP TABLE IF EXISTS "+n); err != nil {
			return err
		}
	}
	return nil
}

func (s *pgSink) create(ctx context.Context) error {
	for _, t := range tables() {
		if _, err := s.conns[0].Exec(ctx, pgDialect.createSQL(t)); err != nil {
			return fmt.Errorf("create %s: %w", t.name, err)
		}
	}
	_, err := s.conns[0].Exec(ctx, metaCreateSQL)
	return err
}

func (s *pgSink) write(ctx context.Context, w int, t *table, rows [][]any) error {
	_, err := s.conns[w].CopyFrom(ctx, pgx.Identifier{t.name}, t.colNames(), pgx.CopyFromRows(rows))
	return err
}

// index builds the keys of different tables on different connections at
// once, then analyzes.
func (s *pgSink) index(ctx context.Context) error {
	var qs []string
	for _, t := range tables() {
		qs = append(qs, pgDialect.indexSQL(t)...)
	}
	work := make(chan string)
	errs := make([]error, len(s.conns))
	var wg sync.WaitGroup
	for i, c := range s.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
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
	_, err := s.conns[0].Exec(ctx, "ANALYZE "+strings.Join(TableNames(), ", "))
	return err
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
		c.Close(context.Background())
	}
	return nil
}
