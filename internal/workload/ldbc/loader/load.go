// Package loader imports an LDBC SNB data set in the CsvBasic layout (see
// package ldbcfile) into a SQL target: the person file, the knows file,
// the other person relations and the static files, one table each.
//
// Rows are validated on the client: malformed lines, duplicate keys (a
// friendship listed twice, in either direction), self-friendships and rows
// naming unknown persons go to a failed-rows file with their line number
// and reason, and loading goes on. PostgreSQL is loaded with several
// concurrent binary COPY streams, SQLite with multi-row INSERTs in large
// transactions on its single writer; keys and indexes are built after the
// rows are in. The counts in the target are verified at the end and
// recorded, with a fingerprint of the data, in the stampede_meta table,
// which also marks the load complete.
package loader

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/ldbc/ldbcfile"
)

// Config says what to load where.
type Config struct {
	// Target is the database URL: sqlite://PATH (created if missing) or
	// postgres://... (credentials may come from Getenv's PG* variables).
	Target string
	// Data is the data set root (what `stampede gen ldbc --out` wrote).
	Data string
	// Drop removes the loader's tables first. Without it, a target that
	// already holds them is refused with ErrLoaded.
	Drop bool
	// Workers is the number of concurrent COPY streams into PostgreSQL
	// (default 4); SQLite always uses its one writer.
	Workers int
	// FailedRows is the failed-rows file (default DATA/failed_rows.csv).
	// It is only written when rows fail.
	FailedRows string
	// Getenv resolves PG* variables (may be nil).
	Getenv func(string) string
	// Progress receives a progress bar (rows, rows/s, ETA); nil for none.
	Progress io.Writer
}

// TableStats is the outcome for one table.
type TableStats struct {
	Table, File    string
	Loaded, Failed int64
}

// Stats is the outcome of Load.
type Stats struct {
	Tables         []TableStats
	Loaded, Failed int64
	// FailedRows is the failed-rows file, "" when no row failed.
	FailedRows string
	Meta       Meta
	// Elapsed is the whole load; Rows the part that read, validated and
	// wrote the rows into key-less tables (what a plain COPY does), Index
	// building keys and indexes and ANALYZE, Verify counting the tables.
	Elapsed, Rows, Index, Verify time.Duration
}

// ErrLoaded is wrapped by Load's error when the target already holds the
// loader's tables and Config.Drop is false. It is a usage error.
var ErrLoaded = errors.New("target already holds LDBC tables")

// DefaultWorkers is the default number of COPY streams.
const DefaultWorkers = 4

// Load imports cfg.Data into cfg.Target. Bad input (target URL, an
// unreachable target, a missing data set, an already loaded target) gives
// errors wrapping workload.ErrUsage.
func Load(ctx context.Context, cfg Config) (Stats, error) {
	t0 := time.Now()
	if _, err := os.Stat(filepath.Join(cfg.Data, ldbcfile.PersonPath)); err != nil {
		return Stats{}, workload.Usagef("no LDBC data in %s (%v): generate it with stampede gen ldbc --out %s", cfg.Data, unwrapPath(err), cfg.Data)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.FailedRows == "" {
		cfg.FailedRows = filepath.Join(cfg.Data, "failed_rows.csv")
	}
	s, err := openSink(ctx, cfg.Target, cfg.Workers, cfg.Getenv)
	if err != nil {
		return Stats{}, err
	}
	defer s.close()
	kv, exists, err := s.inspect(ctx)
	if err != nil {
		return Stats{}, fmt.Errorf("inspect %s: %w", redact(cfg.Target), err)
	}
	if exists && !cfg.Drop {
		what := "an incomplete or foreign load (no " + MetaTable + ")"
		if kv != nil {
			m := metaFrom(kv)
			what = fmt.Sprintf("%d persons and %d knows loaded %s", m.Persons, m.Knows, m.LoadedAt.Format(time.DateTime))
		}
		return Stats{}, &usageErr{fmt.Errorf("%w: %s holds %s; use --drop to reload", ErrLoaded, redact(cfg.Target), what)}
	}
	if exists {
		if err := s.drop(ctx); err != nil {
			return Stats{}, fmt.Errorf("drop: %w", err)
		}
	}
	fp, err := Fingerprint(cfg.Data)
	if err != nil {
		return Stats{}, err
	}
	if err := s.create(ctx); err != nil {
		return Stats{}, err
	}
	fr := &failedRows{path: cfg.FailedRows}
	l := &load{s: s, fr: fr, dir: cfg.Data, loaded: map[*table]*atomic.Int64{}}
	ts := present(cfg.Data, tables())
	for _, t := range ts {
		l.loaded[t] = new(atomic.Int64)
	}
	tRows := time.Now()
	bar := newBar(cfg.Progress, cfg.Data, ts)
	l.bar = bar
	persons := personSet{}
	err = l.pump(ctx, []*reader{l.reader(ts[0], nil, persons)})
	if err == nil {
		var rest []*reader
		for _, t := range ts[1:] {
			rest = append(rest, l.reader(t, persons, nil))
		}
		err = l.pump(ctx, rest)
	}
	if cerr := fr.close(); err == nil {
		err = cerr
	}
	bar.finish()
	if err != nil {
		return Stats{}, err
	}
	st := Stats{FailedRows: cfg.FailedRows, Rows: time.Since(tRows)}
	tIndex := time.Now()
	if err := s.index(ctx); err != nil {
		return Stats{}, fmt.Errorf("build indexes: %w", err)
	}
	st.Index = time.Since(tIndex)
	tVerify := time.Now()
	for _, t := range ts {
		want := l.loaded[t].Load()
		got, err := s.count(ctx, t.name)
		if err != nil {
			return Stats{}, fmt.Errorf("count %s: %w", t.name, err)
		}
		if got != want {
			return Stats{}, fmt.Errorf("verify: table %s holds %d rows, %d were loaded", t.name, got, want)
		}
		ft := TableStats{Table: t.name, File: t.file.Path, Loaded: got, Failed: fr.byFile(t.file.Path)}
		st.Tables = append(st.Tables, ft)
		st.Loaded += ft.Loaded
		st.Failed += ft.Failed
	}
	st.Verify = time.Since(tVerify)
	if st.Failed == 0 {
		st.FailedRows = ""
	}
	abs, _ := filepath.Abs(cfg.Data)
	st.Meta = Meta{Fingerprint: fp, Persons: st.Tables[0].Loaded, Knows: st.Tables[1].Loaded, Failed: st.Failed, LoadedAt: time.Now(), Data: abs}
	if err := s.putMeta(ctx, st.Meta); err != nil {
		return Stats{}, fmt.Errorf("record load: %w", err)
	}
	st.Elapsed = time.Since(t0)
	return st, nil
}

// Inspect reports what a target holds: its Meta when a load completed,
// nil when it holds none of the loader's tables, and an error wrapping
// ErrIncomplete when it holds some without a completed load.
func Inspect(ctx context.Context, target string, getenv func(string) string) (*Meta, error) {
	s, err := openSink(ctx, target, 1, getenv)
	if err != nil {
		return nil, err
	}
	defer s.close()
	kv, exists, err := s.inspect(ctx)
	if err != nil {
		return nil, fmt.Errorf("inspect %s: %w", redact(target), err)
	}
	if kv != nil {
		return metaFrom(kv), nil
	}
	if exists {
		return nil, ErrIncomplete
	}
	return nil, nil
}

// ErrIncomplete says a target holds loader tables but no completed load.
var ErrIncomplete = errors.New("target holds LDBC tables but no completed load")

type usageErr struct{ err error }

func (e *usageErr) Error() string        { return e.err.Error() }
func (e *usageErr) Unwrap() error        { return e.err }
func (e *usageErr) Is(target error) bool { return target == workload.ErrUsage }

// load is the state of one Load.
type load struct {
	s      sink
	fr     *failedRows
	dir    string
	bar    *bar
	loaded map[*table]*atomic.Int64
}

func (l *load) reader(t *table, persons, collect personSet) *reader {
	return &reader{t: t, dir: l.dir, wantTime: l.s.wantTime(), persons: persons, failed: l.fr, bar: l.bar, collect: collect}
}

// pump runs the readers (each file is read by one goroutine) and the
// sink's writers until every row is written or the first error.
func (l *load) pump(ctx context.Context, readers []*reader) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	chunks := make(chan chunk, l.s.writers())
	var rwg, wwg sync.WaitGroup
	for _, r := range readers {
		rwg.Add(1)
		go func() {
			defer rwg.Done()
			if _, err := r.read(ctx, chunks); err != nil {
				cancel(err)
			}
		}()
	}
	for w := range l.s.writers() {
		wwg.Add(1)
		go func() {
			defer wwg.Done()
			for c := range chunks {
				if ctx.Err() != nil {
					continue
				}
				if err := l.write(ctx, w, c); err != nil {
					cancel(err)
				}
			}
		}()
	}
	rwg.Wait()
	close(chunks)
	wwg.Wait()
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return ctx.Err()
}

// write stores one chunk; when the target rejects it as a whole, its rows
// are retried one by one and the rejected ones go to the failed-rows file
// with the target's message.
func (l *load) write(ctx context.Context, w int, c chunk) error {
	err := l.s.write(ctx, w, c.t, c.rows)
	if err == nil {
		l.loaded[c.t].Add(int64(len(c.rows)))
		l.bar.add(int64(len(c.rows)))
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for i, r := range c.rows {
		if err := l.s.write(ctx, w, c.t, c.rows[i:i+1]); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if ferr := l.fr.add(c.t.file.Path, c.lines[i], "rejected by target: "+err.Error(), formatRow(r)); ferr != nil {
				return ferr
			}
			continue
		}
		l.loaded[c.t].Add(1)
	}
	l.bar.add(int64(len(c.rows)))
	return nil
}

func formatRow(r []any) string {
	parts := make([]string, len(r))
	for i, v := range r {
		if t, ok := v.(time.Time); ok {
			parts[i] = t.UTC().Format(ldbcfile.DateTimeLayout)
		} else {
			parts[i] = fmt.Sprint(v)
		}
	}
	return strings.Join(parts, string(ldbcfile.Separator))
}

func redact(target string) string { return driver.Redact(target) }

func scrubPass(err error, pass string) string {
	msg := err.Error()
	if pass != "" {
		msg = strings.ReplaceAll(msg, pass, "xxxxx")
	}
	return msg
}
