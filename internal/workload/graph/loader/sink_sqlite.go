package loader

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/fslock"
	"github.com/stampede-bench/stampede/internal/usage"
)

// sqliteRowsPerStmt is the number of rows per multi-row INSERT.
const sqliteRowsPerStmt = 256

// sqliteSink loads into a new file next to the target (PATH.loading-*)
// through one connection: SQLite has a single writer, so more would only
// wait on each other; readers still parse in parallel. swap renames the
// new file over the target, so the target is either the old load or the
// new one, never a mix or an empty file.
type sqliteSink struct {
	path string // the target
	tmp  string // the staging file
	// lock is held on tmp while this load runs, so that another load
	// can tell it from one a killed process left (removeDebris).
	lock  *fslock.Lock
	db    *sql.DB
	conn  *sql.Conn // the one connection; statements are prepared on it
	stmts map[string]*sql.Stmt
	// others are the target's tables that the loader did not create
	// (found by inspect); Load refuses to replace such a file.
	others []string
}

func openSQLite(_ context.Context, u *url.URL) (sink, error) {
	path := sqlite.Path(u)
	if path == "" {
		return nil, usage.Errorf("sqlite target %s names no file: want sqlite:///abs/path.db or sqlite://relative.db", u.Redacted())
	}
	if dir := filepath.Dir(path); dir != "" {
		if _, err := os.Stat(dir); err != nil {
			return nil, usage.Errorf("sqlite target %s: directory %s: %v", path, dir, unwrapPath(err))
		}
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, usage.Errorf("sqlite target %s is a directory", path)
	}
	return &sqliteSink{path: path, stmts: map[string]*sql.Stmt{}}, nil
}

func (s *sqliteSink) writers() int   { return 1 }
func (s *sqliteSink) wantTime() bool { return false }

// inspect reads the target file, if there is one, and notes the tables in
// it that the loader did not create (see foreign).
func (s *sqliteSink) inspect(ctx context.Context) (map[string]string, bool, error) {
	if _, err := os.Stat(s.path); os.IsNotExist(err) {
		return nil, false, nil
	}
	db, err := sql.Open("sqlite", sqlite.DSN(s.path, false))
	if err != nil {
		return nil, false, usage.Errorf("sqlite target %s: %v", s.path, err)
	}
	defer db.Close()
	names, err := sqliteTables(ctx, db)
	if err != nil {
		return nil, false, usage.Errorf("sqlite target %s: %v", s.path, err)
	}
	ours := TableNames()
	found := false
	var foreign []string
	for _, n := range names {
		if slices.Contains(ours, n) {
			found = true
		} else if !strings.HasPrefix(n, "sqlite_") {
			foreign = append(foreign, n)
		}
	}
	s.others = foreign
	if !slices.Contains(names, MetaTable) {
		return nil, found, nil
	}
	kv, err := readMeta(ctx, db.QueryContext, "")
	return kv, found, err
}

func sqliteTables(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'table'")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, strings.ToLower(n))
	}
	return names, rows.Err()
}

// foreign refuses to replace a file holding tables the loader did not
// create: the swap would lose them.
func (s *sqliteSink) foreign() error {
	if len(s.others) == 0 {
		return nil
	}
	return usage.Errorf("sqlite target %s holds tables stampede did not create (%s): load into a new file", s.path, strings.Join(s.others, ", "))
}

// stage creates the new file and the tables in it.
func (s *sqliteSink) stage(ctx context.Context) error {
	f, err := os.CreateTemp(filepath.Dir(s.path), filepath.Base(s.path)+".loading-*")
	if err != nil {
		return fmt.Errorf("sqlite staging file: %w", err)
	}
	s.tmp = f.Name()
	f.Close()
	// Released only after SQLite closed the file: closing another
	// descriptor of it earlier would drop SQLite's own fcntl locks.
	if s.lock, err = fslock.TryLock(s.tmp); err != nil && !errors.Is(err, fslock.ErrUnsupported) {
		return fmt.Errorf("sqlite staging file: %w", err)
	}
	db, err := sql.Open("sqlite", sqlite.DSN(s.tmp, true))
	if err != nil {
		return fmt.Errorf("sqlite %s: %w", s.tmp, err)
	}
	s.db = db
	db.SetMaxOpenConns(1)
	// Bulk-load settings for this connection only: the file becomes the
	// target only after its counts verified.
	for _, p := range []string{"PRAGMA synchronous=OFF", "PRAGMA cache_size=-262144", "PRAGMA temp_store=MEMORY"} {
		if _, err := db.ExecContext(ctx, p); err != nil {
			return fmt.Errorf("sqlite %s: %w", s.tmp, err)
		}
	}
	if s.conn, err = db.Conn(ctx); err != nil {
		return fmt.Errorf("sqlite %s: %w", s.tmp, err)
	}
	for _, t := range tables() {
		if _, err := s.conn.ExecContext(ctx, sqliteDialect.createSQL(t, "")); err != nil {
			return fmt.Errorf("create %s: %w", t.name, err)
		}
	}
	_, err = s.conn.ExecContext(ctx, metaCreateSQL(""))
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
		for _, q := range sqliteDialect.indexSQL(t, "") {
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
	return nil
}

// swap checkpoints and closes the new file and renames it over the target.
func (s *sqliteSink) swap(ctx context.Context) error {
	// Leave the file in its run-time shape: WAL checkpointed into the file.
	if _, err := s.conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return err
	}
	if err := s.closeDB(); err != nil {
		return err
	}
	if _, err := os.Stat(s.path + "-wal"); err == nil {
		return fmt.Errorf("sqlite target %s is in use (its -wal file exists): stop its users and load again; the target is unchanged", s.path)
	}
	if err := os.Rename(s.tmp, s.path); err != nil {
		return err
	}
	removeSQLiteFiles(s.tmp) // stray -wal/-shm of the staging name
	s.tmp = ""
	s.lock.Unlock()
	s.lock = nil
	return nil
}

// abort removes the staging file after a failure; the target is untouched.
func (s *sqliteSink) abort() {
	s.closeDB()
	if s.tmp != "" {
		os.Remove(s.tmp)
		removeSQLiteFiles(s.tmp)
		s.tmp = ""
	}
	s.lock.Unlock()
	s.lock = nil
}

func removeSQLiteFiles(path string) {
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		os.Remove(path + suffix)
	}
}

func (s *sqliteSink) closeDB() error {
	for k, st := range s.stmts {
		st.Close()
		delete(s.stmts, k)
	}
	var errs []error
	if s.conn != nil {
		errs = append(errs, s.conn.Close())
		s.conn = nil
	}
	if s.db != nil {
		errs = append(errs, s.db.Close())
		s.db = nil
	}
	return errors.Join(errs...)
}

func (s *sqliteSink) close() error {
	s.abort()
	return nil
}

// readMeta reads the key/value pairs of stampede_meta (qualified by q)
// through query.
func readMeta(ctx context.Context, query func(context.Context, string, ...any) (*sql.Rows, error), q string) (map[string]string, error) {
	rows, err := query(ctx, "SELECT key, value FROM "+q+MetaTable)
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
