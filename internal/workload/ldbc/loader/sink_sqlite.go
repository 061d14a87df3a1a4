package loader

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/workload"
)

// sqliteRowsPerStmt is the number of rows per multi-row INSERT.
const sqliteRowsPerStmt = 256

// sqliteSink loads through one connection: SQLite has a single writer, so
// more would only wait on each other. Readers still parse in parallel.
type sqliteSink struct {
	db    *sql.DB
	conn  *sql.Conn // the one connection; statements are prepared on it
	path  string
	stmts map[string]*sql.Stmt
}

func openSQLite(ctx context.Context, u *url.URL) (sink, error) {
	path := sqlite.Path(u)
	if path == "" {
		return nil, workload.Usagef("sqlite target %s names no file: want sqlite:///abs/path.db or sqlite://relative.db", u.Redacted())
	}
	if dir := filepath.Dir(path); dir != "" {
		if _, err := os.Stat(dir); err != nil {
			return nil, workload.Usagef("sqlite target %s: directory %s: %v", path, dir, unwrapPath(err))
		}
	}
	db, err := sql.Open("sqlite", sqlite.DSN(path, true))
	if err != nil {
		return nil, workload.Usagef("sqlite target %s: %v", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, workload.Usagef("sqlite target %s: %v", path, err)
	}
	// Bulk-load settings for this connection only: a crash mid-load leaves
	// no stampede_meta row, so the load is redone anyway.
	for _, p := range []string{"PRAGMA synchronous=OFF", "PRAGMA cache_size=-262144", "PRAGMA temp_store=MEMORY"} {
		if _, err := db.ExecContext(ctx, p); err != nil {
			db.Close()
			return nil, fmt.Errorf("sqlite %s: %w", path, err)
		}
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	return &sqliteSink{db: db, conn: conn, path: path, stmts: map[string]*sql.Stmt{}}, nil
}

func (s *sqliteSink) writers() int   { return 1 }
func (s *sqliteSink) wantTime() bool { return false }

func (s *sqliteSink) inspect(ctx context.Context) (map[string]string, bool, error) {
	names := map[string]bool{}
	rows, err := s.conn.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'table'")
	if err != nil {
		return nil, false, err
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, false, err
		}
		names[strings.ToLower(n)] = true
	}
	rows.Close()
	found := false
	for _, n := range TableNames() {
		found = found || names[n]
	}
	if !names[MetaTable] {
		return nil, found, nil
	}
	kv, err := readMeta(ctx, s.conn.QueryContext)
	return kv, found, err
}

func (s *sqliteSink) drop(ctx context.Context) error {
	for _, n := range TableNames() {
		if _, err := s.conn.ExecContext(ctx, "DROP TABLE IF EXISTS "+n); err != nil {
			return err
		}
	}
	_, err := s.conn.ExecContext(ctx, "VACUUM")
	return err
}

func (s *sqliteSink) create(ctx context.Context) error {
	for _, t := range tables() {
		if _, err := s.conn.ExecContext(ctx, sqliteDialect.createSQL(t)); err != nil {
			return fmt.Errorf("create %s: %w", t.name, err)
		}
	}
	_, err := s.conn.ExecContext(ctx, metaCreateSQL)
	return err
}

func (s *sqliteSink) insertStmt(ctx context.Context, t *table, n int) (*sql.Stmt, error) {
	key := fmt.Sprintf("%s/%d", t.name, n)
	st, ok := s.stmts[key]
	if !ok {
		var b strings.Builder
		fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES ", t.name, strings.Join(t.colNames(), ", "))
		p := 1
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for j := range t.cols {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "?%d", p)
				p++
			}
			b.WriteByte(')')
		}
		var err error
		if st, err = s.conn.PrepareContext(ctx, b.String()); err != nil {
			return nil, err
		}
		s.stmts[key] = st
	}
	return st, nil
}

func (s *sqliteSink) write(ctx context.Context, _ int, t *table, rows [][]any) error {
	if _, err := s.conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			s.conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		}
	}()
	args := make([]any, 0, sqliteRowsPerStmt*len(t.cols))
	for len(rows) > 0 {
		n := min(len(rows), sqliteRowsPerStmt)
		st, err := s.insertStmt(ctx, t, n)
		if err != nil {
			return err
		}
		args = args[:0]
		for _, r := range rows[:n] {
			args = append(args, r...)
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	if _, err := s.conn.ExecContext(ctx, "COMMIT"); err != nil {
		return err
	}
	committed = true
	return nil
}

func (s *sqliteSink) index(ctx context.Context) error {
	for _, t := range tables() {
		for _, q := range sqliteDialect.indexSQL(t) {
			if _, err := s.conn.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
	}
	_, err := s.conn.ExecContext(ctx, "ANALYZE")
	return err
}

func (s *sqliteSink) count(ctx context.Context, table string) (int64, error) {
	var n int64
	err := s.conn.QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n)
	return n, err
}

func (s *sqliteSink) putMeta(ctx context.Context, m Meta) error {
	for _, kv := range m.pairs() {
		if _, err := s.conn.ExecContext(ctx, "INSERT INTO "+MetaTable+" (key, value) VALUES (?1, ?2)", kv[0], kv[1]); err != nil {
			return err
		}
	}
	// Leave the file in its run-time shape: WAL checkpointed into the file.
	_, err := s.conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

func (s *sqliteSink) close() error {
	for _, st := range s.stmts {
		st.Close()
	}
	s.conn.Close()
	return s.db.Close()
}

// readMeta reads the key/value pairs of stampede_meta through query.
func readMeta(ctx context.Context, query func(context.Context, string, ...any) (*sql.Rows, error)) (map[string]string, error) {
	rows, err := query(ctx, "SELECT key, value FROM "+MetaTable)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	kv := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		kv[k] = v
	}
	return kv, rows.Err()
}
