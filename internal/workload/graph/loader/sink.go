package loader

import (
	"context"
	"net/url"
	"strings"

	"github.com/stampede-bench/stampede/internal/redact"
	"github.com/stampede-bench/stampede/internal/usage"
)

// sink is a target database as the loader sees it.
type sink interface {
	// writers is how many write calls may run at once (index w < writers).
	writers() int
	// wantTime is true when date columns take time.Time values.
	wantTime() bool
	// inspect returns the stampede_meta contents (nil when the table is
	// missing) and whether any loader table exists.
	inspect(ctx context.Context) (map[string]string, bool, error)
	// stage creates the loader's tables in a staging area the target's
	// users do not see (PostgreSQL: a new schema; SQLite: a new file next
	// to the target). write, index, count and putMeta work on it.
	stage(ctx context.Context) error
	// write stores rows of t through writer w, all or nothing.
	write(ctx context.Context, w int, t *table, rows [][]any) error
	// index builds keys and indexes and refreshes planner statistics.
	index(ctx context.Context) error
	count(ctx context.Context, table string) (int64, error)
	putMeta(ctx context.Context, m Meta) error
	// swap atomically replaces the target's loader tables (if any) with
	// the staged ones.
	swap(ctx context.Context) error
	// removeDebris removes the staging areas of loads that were killed
	// (never one a running load holds, never anything the loader did not
	// make) and returns one line for each ("removed ...").
	removeDebris(ctx context.Context) ([]string, error)
	// abort removes the staging area; a no-op after swap. close aborts.
	abort()
	close() error
}

// openSink connects to target with up to workers writers.
func openSink(ctx context.Context, target string, workers int, getenv func(string) string) (sink, error) {
	u, err := url.Parse(target)
	if err != nil || u.Scheme == "" {
		return nil, usage.Errorf("bad target URL %q: want sqlite://PATH or postgres://...", redact.URL(target))
	}
	switch strings.ToLower(u.Scheme) {
	case "sqlite":
		return openSQLite(ctx, u)
	case "postgres", "postgresql":
		return openPostgres(ctx, u, workers, getenv)
	}
	return nil, usage.Errorf("stampede load cannot load into %s targets (supported: sqlite://PATH, postgres://...)", u.Scheme)
}
