// Package postgres is stampede's driver for PostgreSQL (jackc/pgx), URL
// schemes "postgres" and "postgresql":
//
//	postgres://user:password@host:5432/db?sslmode=disable
//
// Parts missing from the URL come from the environment through
// Options.Getenv (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE; the CLI
// also reads them from a .env file), then pgx's own defaults. Passwords
// never appear in errors: messages carry redact.ParsedURL'ed URLs only.
//
// Every VU owns one connection; at most Options.PoolSize are open at once.
// pgx prepares each distinct statement once per connection and caches it.
// Options.Timeout bounds each operation without a goroutine or timer per
// query: one watchdog per DB (driver.Watchdog) sends a cancel request to
// the server within a tick of the deadline (Timeout/20, at most
// driver.MaxTick) and cuts the connection DeadlineDelay later if the query
// still runs; a lost connection is reopened by the next query. See
// watch.go.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/redact"
)

// Schemes are the URL schemes of this driver.
var schemes = []string{"postgres", "postgresql"}

// Register adds the driver to r under "postgres" and "postgresql".
func Register(r *driver.Registry) { r.Register(Open, schemes...) }

// ConnectTimeout bounds connecting when the URL sets no connect_timeout.
const ConnectTimeout = 10 * time.Second

// Config parses a postgres:// URL into a pgx configuration, filling what
// the URL leaves out from getenv (may be nil). Errors are redacted.
func Config(u *url.URL, getenv func(string) string) (*pgx.ConnConfig, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	c := *u
	q := c.Query()
	pass, hasPass := "", false
	if c.User != nil {
		pass, hasPass = c.User.Password()
	}
	user := ""
	if c.User != nil {
		user = c.User.Username()
	}
	if user == "" && getenv("PGUSER") != "" {
		user = getenv("PGUSER")
	}
	if !hasPass && getenv("PGPASSWORD") != "" {
		pass, hasPass = getenv("PGPASSWORD"), true
	}
	switch {
	case hasPass:
		c.User = url.UserPassword(user, pass)
	case user != "":
		c.User = url.User(user)
	}
	if c.Hostname() == "" && getenv("PGHOST") != "" {
		c.Host = getenv("PGHOST")
		if p := getenv("PGPORT"); p != "" {
			c.Host += ":" + p
		}
	}
	if strings.Trim(c.Path, "/") == "" && getenv("PGDATABASE") != "" {
		c.Path = "/" + getenv("PGDATABASE")
	}
	if q.Get("connect_timeout") == "" {
		q.Set("connect_timeout", strconv.Itoa(int(ConnectTimeout/time.Second)))
	}
	c.RawQuery = q.Encode()
	cfg, err := pgx.ParseConfig(c.String())
	if err != nil {
		return nil, fmt.Errorf("bad postgres target %s: %w", redact.ParsedURL(u), scrub(err, pass))
	}
	cfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, CancelRequestDelay: 0, DeadlineDelay: time.Second}
	}
	return cfg, nil
}

// scrub removes a password from an error message, in case a library
// echoes a connection string.
func scrub(err error, pass string) error {
	if err == nil || pass == "" || !strings.Contains(err.Error(), pass) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), pass, "xxxxx"))
}

// DB opens connections to one server; it implements driver.Driver and
// driver.Versioner.
type DB struct {
	cfg     *pgx.ConnConfig
	target  string // redacted
	timeout time.Duration
	slots   chan struct{}
	watch   *driver.Watchdog // interrupts overdue or cancelled queries
}

var (
	_ driver.Driver    = (*DB)(nil)
	_ driver.Versioner = (*DB)(nil)
)

// Open is the driver.Opener of postgres:// URLs. It connects once to check
// the target (address, credentials, database) before returning.
func Open(ctx context.Context, u *url.URL, opts driver.Options) (driver.Driver, error) {
	cfg, err := Config(u, opts.Getenv)
	if err != nil {
		return nil, err
	}
	d := &DB{cfg: cfg, target: redact.ParsedURL(u), timeout: opts.Timeout, slots: make(chan struct{}, max(opts.PoolSize, 1))}
	c, err := d.connect(ctx)
	if err != nil {
		return nil, err
	}
	c.Close(ctx)
	d.watch = driver.NewWatchdog(opts.Timeout)
	return d, nil
}

// Connect opens a plain pgx connection to the target (setup code, loader).
func (d *DB) Connect(ctx context.Context) (*pgx.Conn, error) { return d.connect(ctx) }

func (d *DB) connect(ctx context.Context) (*pgx.Conn, error) {
	c, err := pgx.ConnectConfig(ctx, d.cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres %s: %w", d.target, scrub(Cause(err), d.cfg.Password))
	}
	return c, nil
}

// Conn opens one VU's connection, waiting for a free slot of the pool.
func (d *DB) Conn(ctx context.Context) (driver.Conn, error) {
	select {
	case d.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	c, err := d.connect(ctx)
	if err != nil {
		<-d.slots
		return nil, err
	}
	conn := &Conn{c: c, d: d}
	conn.op = d.watch.Add(conn.interrupt)
	return conn, nil
}

// Version returns the server version, e.g. "PostgreSQL 15.4".
func (d *DB) Version(ctx context.Context) (string, error) {
	c, err := d.connect(ctx)
	if err != nil {
		return "", err
	}
	defer c.Close(ctx)
	var v string
	if err := c.QueryRow(ctx, "show server_version").Scan(&v); err != nil {
		return "", err
	}
	return "PostgreSQL " + v, nil
}

// Close stops the watchdog; connections belong to their VUs, which close
// them first.
func (d *DB) Close() error {
	d.watch.Close()
	return nil
}
