// Package sqlite is stampede's driver for SQLite database files
// (modernc.org/sqlite, pure Go), URL scheme "sqlite":
//
//	sqlite:///abs/path/ldbc.db   absolute path
//	sqlite://relative/ldbc.db    path relative to the working directory
//
// Every VU gets its own connection from a pool of Options.PoolSize
// connections. The database runs in WAL mode, so readers never block each
// other nor the writer; SQLite allows one writer at a time, so concurrent
// writing statements queue on the write lock for up to BusyTimeout (the
// busy handler) instead of failing at once with "database is locked".
// Statements are prepared once per connection and cached.
//
// Options.Timeout and the run's cancellation end a reading statement
// without a goroutine per statement: one watchdog per DB interrupts it
// (sqlite3_interrupt) within a tick (Timeout/20, between driver.MinTick and
// driver.MaxTick) of its deadline or of the run's end; see watchdog.go. Writing
// statements run under a per-operation context.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/redact"

	_ "modernc.org/sqlite" // registers database/sql driver "sqlite"
)

// Scheme is the URL scheme of this driver.
const Scheme = "sqlite"

// BusyTimeout is how long a statement waits for a lock held by another
// connection (the single writer) before it fails with SQLITE_BUSY, unless
// Options.Timeout is shorter.
const BusyTimeout = 30 * time.Second

// Register adds the driver to r under Scheme.
func Register(r *driver.Registry) { r.Register(Open, Scheme) }

// Path returns the file path a sqlite:// URL names: the host and path
// joined for relative paths (sqlite://dir/x.db), the path for absolute
// ones (sqlite:///abs/x.db).
func Path(u *url.URL) string {
	p := u.Host + u.Path
	if u.Opaque != "" { // sqlite:x.db
		p = u.Opaque
	}
	return p
}

// MmapSize is the most of a database file that connections read through
// a memory map (PRAGMA mmap_size), in bytes.
const MmapSize = 1 << 30

// URL returns the sqlite:// URL of a file path.
func URL(path string) string {
	return Scheme + "://" + filepath.ToSlash(path)
}

// DSN returns the modernc.org/sqlite data source name of path with WAL
// mode, NORMAL synchronous, the busy timeout and memory-mapped reads. create allows creating a
// missing file; otherwise opening a missing file fails.
func DSN(path string, create bool) string { return dsn(path, create, BusyTimeout) }

// dsn is DSN with a busy timeout of busy.
func dsn(path string, create bool, busy time.Duration) string {
	mode := "rw"
	if create {
		mode = "rwc"
	}
	q := url.Values{}
	q.Set("mode", mode)
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	// Read pages through a shared memory map instead of copying them into
	// each connection's private cache: with one connection per VU that
	// saves memory and, measured on the graph scenarios, 15-100 % of QPS.
	q.Add("_pragma", fmt.Sprintf("mmap_size(%d)", MmapSize))
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// DB is an open database file; it implements driver.Driver and
// driver.Versioner.
type DB struct {
	db      *sql.DB
	path    string
	timeout time.Duration
	slots   chan struct{}    // bounds open VU connections to the pool size
	watch   *driver.Watchdog // interrupts overdue or cancelled reads
}

var (
	_ driver.Driver    = (*DB)(nil)
	_ driver.Versioner = (*DB)(nil)
)

// Open is the driver.Opener of sqlite:// URLs. The file must exist (stampede
// load or the embedded default creates it); the connection is checked
// before Open returns.
func Open(ctx context.Context, u *url.URL, opts driver.Options) (driver.Driver, error) {
	path := Path(u)
	if path == "" {
		return nil, fmt.Errorf("sqlite target %s names no file: want sqlite:///abs/path.db or sqlite://relative.db", redact.ParsedURL(u))
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("sqlite target %s: %w", path, unwrapPathError(err))
	}
	pool := max(opts.PoolSize, 1)
	// SQLite's busy handler sleeps without looking at the context: a wait
	// for the write lock is bounded by the operation timeout this way.
	busy := BusyTimeout
	if opts.Timeout > 0 && opts.Timeout < busy {
		busy = opts.Timeout
	}
	db, err := sql.Open("sqlite", dsn(path, false, busy))
	if err != nil {
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	db.SetMaxOpenConns(pool + 1) // +1 for Version and setup statements
	db.SetMaxIdleConns(pool + 1)
	db.SetConnMaxLifetime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	return &DB{db: db, path: path, timeout: opts.Timeout, slots: make(chan struct{}, pool), watch: driver.NewWatchdog(opts.Timeout)}, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// SQL returns the underlying database/sql handle (setup code, tests).
func (d *DB) SQL() *sql.DB { return d.db }

// Conn opens one VU's connection. At most Options.PoolSize connections are
// open at once; Conn waits for a free slot until ctx ends.
func (d *DB) Conn(ctx context.Context) (driver.Conn, error) {
	select {
	case d.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	c, err := d.db.Conn(ctx)
	if err != nil {
		<-d.slots
		return nil, fmt.Errorf("sqlite %s: %w", d.path, err)
	}
	conn := &Conn{c: c, d: d, stmts: map[string]*stmt{}}
	if intr, err := interrupter(c); err == nil {
		conn.op = d.watch.Add(func(time.Duration) { intr() })
	}
	return conn, nil
}

// Version returns the SQLite library version.
func (d *DB) Version(ctx context.Context) (string, error) {
	var v string
	if err := d.db.QueryRowContext(ctx, "select sqlite_version()").Scan(&v); err != nil {
		return "", err
	}
	return "SQLite " + v, nil
}

// Close stops the watchdog and closes every connection.
func (d *DB) Close() error {
	d.watch.Close()
	return d.db.Close()
}

// isQuery reports whether a statement returns rows by its first keyword;
// others report the number of rows they changed.
func isQuery(q string) bool {
	q = strings.TrimLeft(q, " \t\r\n(")
	i := strings.IndexAny(q, " \t\r\n(")
	if i < 0 {
		i = len(q)
	}
	switch strings.ToLower(q[:i]) {
	case "select", "with", "values", "pragma", "explain":
		return true
	}
	return strings.Contains(strings.ToLower(q), " returning ")
}

// readOnly reports whether q only reads, by its words: a SELECT, VALUES
// or WITH statement in which no INSERT, UPDATE, DELETE, REPLACE or
// RETURNING appears. Such statements never wait for the write lock.
func readOnly(q string) bool {
	q = strings.ToLower(q)
	f := strings.FieldsFunc(q, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "select", "with", "values":
	default:
		return false
	}
	for _, w := range f {
		switch w {
		case "insert", "update", "delete", "replace", "returning":
			return false
		}
	}
	return true
}
