// Package loader imports an LDBC SNB data set in any CSV layout of the
// Hadoop datagen (CsvBasic, CsvComposite, CsvMergeForeign,
// CsvCompositeMergeForeign; see package ldbcfile), with ISO or
// epoch-millisecond dates, into a SQL target: the person file, the knows
// file, the other person relations and the static files, one table each,
// in the same schema whatever the layout.
//
// Rows are validated on the client in a first pass that does not touch the
// target: malformed lines, duplicate keys (a friendship listed twice, in
// either direction), self-friendships and rows naming unknown persons go
// to a failed-rows file with their line number and reason, and the load
// fails unless Config.MaxRejected allows them. The second pass loads into
// a staging area that is swapped in only after the counts verified, so a
// failed load never damages the previous one. PostgreSQL is loaded with several
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
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/nospace"
	"github.com/stampede-bench/stampede/internal/progress"
	"github.com/stampede-bench/stampede/internal/redact"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// Config says what to load where.
type Config struct {
	// Target is the database URL: sqlite://PATH (created if missing) or
	// postgres://... (credentials may come from Getenv's PG* variables).
	Target string
	// Data is the data set root (what `stampede gen ldbc --out` wrote, or
	// the output of LDBC's Hadoop datagen in any of its CSV layouts).
	Data string
	// Drop replaces a previous load. Without it, a target that already
	// holds the loader's tables is refused with ErrLoaded. The previous
	// load stays in place until the new one has verified.
	Drop bool
	// Workers is the number of concurrent COPY streams into PostgreSQL
	// (default 4); SQLite always uses its one writer.
	Workers int
	// FailedRows is the failed-rows file (default: next to the SQLite
	// file, PATH.failed_rows.csv; for PostgreSQL next to the data set
	// directory, DATA.failed_rows.csv). It may not be inside Data. It is
	// only written when rows fail.
	FailedRows string
	// MaxRejected is how many rows may fail validation (or be rejected by
	// the target) with the load still succeeding; the zero value allows
	// none.
	MaxRejected Limit
	// Dates is the date format of the data set (default: detected per
	// value).
	Dates ldbcfile.DateFormat
	// Getenv resolves PG* variables (may be nil).
	Getenv func(string) string
	// Progress, when not nil, receives the rows read so far over both
	// passes (Total is every data row counted twice: validation reads each
	// row once, loading once more), from one goroutine every 200ms while
	// rows come in, and a Final report when Load ends. termbar.New draws it.
	Progress progress.Func
	// PersonGraphOnly leaves out the forum and message tables (posts,
	// comments, likes, ...): what the person-graph scenarios need, in a
	// tenth of the rows. Meta.Activity records whether they were loaded.
	PersonGraphOnly bool
	// Note, when set, receives one line for each thing Load removed that
	// a killed load left behind: a PostgreSQL staging schema no running
	// load holds, a SQLite staging file (PATH.loading-*) with its -wal and
	// -shm files (nil: not told).
	Note func(line string)
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
	// Elapsed is the whole load; Validate the pass that read and checked
	// every row before the target was touched; Rows the part that read,
	// validated and wrote the rows into key-less staging tables (what a
	// plain COPY does), Index building keys and indexes and ANALYZE,
	// Verify counting the tables and swapping them in.
	Elapsed, Validate, Rows, Index, Verify time.Duration
}

// ErrLoaded is wrapped by Load's error when the target already holds the
// loader's tables and Config.Drop is false. It is a usage error.
var ErrLoaded = errors.New("target already holds LDBC tables")

// ErrRejected is wrapped by Load's error when more rows failed than
// Config.MaxRejected allows, or when the person or knows table would be
// empty. Nothing was written to the target.
var ErrRejected = errors.New("rows rejected")

// DefaultWorkers is the default number of COPY streams.
const DefaultWorkers = 4

// Load imports cfg.Data into cfg.Target in two passes. The first reads and
// validates every row without touching the target; if more rows fail than
// cfg.MaxRejected allows, or the person or knows table would be empty, it
// stops with an error wrapping ErrRejected (and is a usage error). The
// second loads into a staging area (a new schema, a new SQLite file),
// builds the indexes, verifies every table's count and only then swaps
// the staged tables in, so a failed or interrupted load leaves the
// previous one as it was. Other bad input (target URL, an unreachable
// target, a missing data set, an already loaded target without Drop)
// gives usage errors (package usage).
func Load(ctx context.Context, cfg Config) (Stats, error) {
	st, err := doLoad(ctx, cfg)
	if nospace.Is(err) && !strings.Contains(err.Error(), "no space left") {
		err = fmt.Errorf("no space left on the target: %w; the target is unchanged", err)
	}
	return st, err
}

func doLoad(ctx context.Context, cfg Config) (Stats, error) {
	t0 := time.Now()
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if err := datagen.Complete(cfg.Data); err != nil {
		return Stats{}, usage.Errorf("%v: generate it again (stampede gen ldbc --force --out %s); nothing was loaded", err, cfg.Data)
	}
	ts := present(cfg.Data, tables())
	if cfg.PersonGraphOnly {
		ts = slices.DeleteFunc(ts, func(t *table) bool { return t.optional })
	}
	plan, err := planFiles(cfg.Data, ts)
	if err != nil {
		return Stats{}, err
	}
	ts = slices.DeleteFunc(ts, func(t *table) bool { return plan.absent[t] })
	if cfg.FailedRows, err = failedRowsPath(cfg); err != nil {
		return Stats{}, err
	}
	s, err := openSink(ctx, cfg.Target, cfg.Workers, cfg.Getenv)
	if err != nil {
		return Stats{}, err
	}
	defer s.close()
	removed, err := s.removeDebris(ctx)
	for _, r := range removed {
		if cfg.Note != nil {
			cfg.Note(r)
		}
	}
	if err != nil && cfg.Note != nil {
		// Debris is not this load's business to fail on.
		cfg.Note(fmt.Sprintf("could not look for what a killed load left in %s: %v", redact.URL(cfg.Target), err))
	}
	kv, exists, err := s.inspect(ctx)
	if err != nil {
		if usage.Is(err) {
			return Stats{}, err
		}
		return Stats{}, fmt.Errorf("inspect %s: %w", redact.URL(cfg.Target), err)
	}
	if f, ok := s.(interface{ foreign() error }); ok {
		if err := f.foreign(); err != nil {
			return Stats{}, err
		}
	}
	if exists && !cfg.Drop {
		what := "an incomplete or foreign load (no " + MetaTable + ")"
		if kv != nil {
			m := metaFrom(kv)
			what = fmt.Sprintf("%d persons and %d knows loaded %s", m.Persons, m.Knows, m.LoadedAt.Format(time.DateTime))
		}
		return Stats{}, usage.Errorf("%w: %s holds %s; use --drop to replace it (the current load stays until the new one has verified)", ErrLoaded, redact.URL(cfg.Target), what)
	}
	fp, err := Fingerprint(cfg.Data)
	if err != nil {
		return Stats{}, err
	}
	fr := &failedRows{path: cfg.FailedRows}
	defer fr.close()
	l := &load{s: s, fr: fr, dir: cfg.Data, dates: cfg.Dates, plan: plan, ts: ts, loaded: map[*table]*atomic.Int64{}}
	for _, t := range ts {
		l.loaded[t] = new(atomic.Int64)
	}
	var files []string
	for _, t := range ts {
		files = append(files, plan.parts[t]...)
	}
	l.meter = newMeter(cfg.Progress, cfg.Data, files, 2)

	// Pass 1: validate everything; the target is not touched.
	tValidate := time.Now()
	valid, persons, err := l.validate(ctx)
	if err != nil {
		l.meter.finish()
		return Stats{}, err
	}
	var read int64
	for _, n := range valid {
		read += n
	}
	read += fr.count()
	if err := l.judge(cfg, read, valid); err != nil {
		l.meter.finish()
		return Stats{}, err
	}
	st := Stats{Validate: time.Since(tValidate)}

	// Pass 2: load into the staging area, verify, swap.
	tRows := time.Now()
	if err := s.stage(ctx); err != nil {
		l.meter.finish()
		return Stats{}, err
	}
	err = l.loadRows(ctx, persons)
	l.meter.finish()
	if err != nil {
		return Stats{}, err
	}
	if err := fr.close(); err != nil {
		return Stats{}, fmt.Errorf("%w; the target is unchanged", err)
	}
	if rejected := fr.count(); rejected > cfg.MaxRejected.Allowed(read) {
		return Stats{}, fmt.Errorf("%w: the target rejected rows: %d of %d rows failed in all, more than --max-rejected %s allows (first: %s); see %s; the target is unchanged",
			ErrRejected, rejected, read, cfg.MaxRejected, fr.first, fr.path)
	}
	st.Rows = time.Since(tRows)
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
		failed := fr.byTable(t.name)
		if got != want || got+failed < valid[t] {
			return Stats{}, fmt.Errorf("verify: table %s holds %d rows, %d were sent and %d validated; the target is unchanged", t.name, got, want, valid[t])
		}
		file := t.file.Path
		if p := plan.parts[t]; len(p) > 0 {
			file = p[0]
		} else if src := plan.filledBy[t]; src != nil {
			file = plan.parts[src][0]
		}
		ft := TableStats{Table: t.name, File: file, Loaded: got, Failed: failed}
		st.Tables = append(st.Tables, ft)
		st.Loaded += ft.Loaded
		st.Failed += ft.Failed
	}
	if st.Tables[0].Loaded == 0 || st.Tables[1].Loaded == 0 {
		return Stats{}, fmt.Errorf("%w: verify: %d persons and %d knows in the target; the target is unchanged", ErrRejected, st.Tables[0].Loaded, st.Tables[1].Loaded)
	}
	abs, _ := filepath.Abs(cfg.Data)
	var maxID int64
	for id := range persons {
		maxID = max(maxID, id)
	}
	st.Meta = Meta{Fingerprint: fp, Persons: st.Tables[0].Loaded, Knows: st.Tables[1].Loaded, Failed: st.Failed,
		LoadedAt: time.Now(), Data: abs, MaxPersonID: maxID, Layout: plan.layout,
		Activity: slices.ContainsFunc(ts, func(t *table) bool { return t.optional })}
	if err := s.putMeta(ctx, st.Meta); err != nil {
		return Stats{}, fmt.Errorf("record load: %w", err)
	}
	if err := s.swap(ctx); err != nil {
		return Stats{}, fmt.Errorf("swap the new load in: %w", err)
	}
	st.Verify = time.Since(tVerify)
	if err := fr.close(); err != nil {
		return st, err
	}
	if st.Failed > 0 {
		st.FailedRows = cfg.FailedRows
	}
	st.Elapsed = time.Since(t0)
	return st, nil
}

// judge fails the load after the validation pass when more rows failed
// than allowed, or the person or knows table would be empty.
func (l *load) judge(cfg Config, read int64, valid map[*table]int64) error {
	rejected := l.fr.count()
	if err := l.fr.close(); err != nil {
		return err
	}
	if allowed := cfg.MaxRejected.Allowed(read); rejected > allowed {
		return usage.Errorf("%w: %d of %d rows are not valid, more than --max-rejected %s allows (first: %s); see %s; nothing was loaded",
			ErrRejected, rejected, read, cfg.MaxRejected, l.fr.first, l.fr.path)
	}
	for _, t := range l.ts[:2] {
		if valid[t] == 0 {
			what := "no rows"
			if rejected > 0 {
				what = fmt.Sprintf("no valid rows (%d rows failed, see %s)", rejected, l.fr.path)
			}
			return usage.Errorf("%w: %s has %s: a graph without %s cannot be benchmarked; nothing was loaded", ErrRejected, l.plan.parts[t][0], what, t.name)
		}
	}
	// Pass 2 appends target rejections to the same file.
	l.fr.reopen = rejected > 0
	return nil
}

// filePlan is where the rows of each table come from.
type filePlan struct {
	// parts are a table's files, relative to the data set (none for a
	// table only filled by another file's extra columns).
	parts map[*table][]string
	// filledBy names the table whose file's columns fill a table.
	filledBy map[*table]*table
	// layout names the layout of the person file.
	layout string
	// absent are optional tables that have neither a file nor a column
	// of another file filling them: they are not loaded.
	absent map[*table]bool
}

// planFiles finds every table's files and their layouts.
func planFiles(dir string, ts []*table) (*filePlan, error) {
	p := &filePlan{parts: map[*table][]string{}, filledBy: map[*table]*table{}, absent: map[*table]bool{}}
	byName := map[string]*table{}
	for _, t := range ts {
		byName[t.name] = t
	}
	var missing []string
	for i, t := range ts {
		parts, err := ldbcfile.Parts(dir, t.file.Path)
		if err != nil {
			if i == 0 {
				return nil, usage.Errorf("no LDBC data in %s: no %s (or person_*_*.csv parts)", dir, t.file.Path)
			}
			missing = append(missing, t.file.Path)
			continue
		}
		p.parts[t] = parts
		if len(t.variants) == 0 {
			continue
		}
		v, err := sniffVariant(filepath.Join(dir, filepath.FromSlash(parts[0])), t.headers())
		if err != nil {
			return nil, usage.Errorf("%s: %v", parts[0], err)
		}
		if t.name == PersonTable {
			p.layout = ldbcfile.Layouts[v]
		}
		if v > 0 {
			for _, x := range t.variants[v-1].extra {
				p.filledBy[byName[x.table]] = t
			}
		}
	}
	var lacks []string
	for _, m := range missing {
		for _, t := range ts {
			switch {
			case t.file.Path != m || p.filledBy[t] != nil:
			case t.optional:
				p.absent[t] = true
			default:
				lacks = append(lacks, m)
			}
		}
	}
	if len(lacks) > 0 {
		return nil, usage.Errorf("data set %s lacks %s", dir, strings.Join(lacks, ", "))
	}
	for t := range p.filledBy {
		delete(p.parts, t) // its columns are in the other file
	}
	return p, nil
}

// sniffVariant returns the index in headers of a file's header line.
func sniffVariant(path string, headers []string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, unwrapPath(err)
	}
	defer f.Close()
	buf := make([]byte, 1024)
	n, _ := io.ReadFull(f, buf)
	line, _, _ := strings.Cut(strings.TrimPrefix(string(buf[:n]), "\xef\xbb\xbf"), "\n")
	line = strings.TrimSuffix(line, "\r")
	for i, h := range headers {
		if line == h {
			return i, nil
		}
	}
	return 0, fmt.Errorf("header %q: want one of %q", ldbcfile.Cut(line), headers)
}

// failedRowsPath is the failed-rows file: cfg.FailedRows or the default,
// never inside the data set.
func failedRowsPath(cfg Config) (string, error) {
	p := cfg.FailedRows
	if p == "" {
		if u, err := url.Parse(cfg.Target); err == nil && strings.EqualFold(u.Scheme, "sqlite") && sqlite.Path(u) != "" {
			p = sqlite.Path(u) + ".failed_rows.csv"
		} else {
			p = filepath.Clean(cfg.Data) + ".failed_rows.csv"
		}
	}
	absData, err1 := filepath.Abs(cfg.Data)
	absP, err2 := filepath.Abs(p)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absData, absP); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", usage.Errorf("--failed-rows %s is inside the data set %s: choose a file outside it", p, cfg.Data)
		}
	}
	return p, nil
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
		return nil, fmt.Errorf("inspect %s: %w", redact.URL(target), err)
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

// load is the state of one Load.
type load struct {
	s      sink
	fr     *failedRows
	dir    string
	dates  ldbcfile.DateFormat
	plan   *filePlan
	ts     []*table
	meter  *meter
	loaded map[*table]*atomic.Int64
}

func (l *load) reader(t *table, persons, collect personSet, bad badRow) *reader {
	byName := map[string]*table{}
	for _, x := range l.ts {
		byName[x.name] = x
	}
	return &reader{t: t, dir: l.dir, parts: l.plan.parts[t], wantTime: l.s.wantTime(), dates: l.dates,
		persons: persons, bad: bad, meter: l.meter, byName: byName, collect: collect}
}

// readers returns the readers of every table with files except the
// person table's.
func (l *load) readers(persons personSet, bad badRow) []*reader {
	var out []*reader
	for _, t := range l.ts[1:] {
		if len(l.plan.parts[t]) > 0 {
			out = append(out, l.reader(t, persons, nil, bad))
		}
	}
	return out
}

// validate is the first pass: it reads and checks every row, writes the
// failed ones to the failed-rows file and counts the valid ones per table.
func (l *load) validate(ctx context.Context) (map[*table]int64, personSet, error) {
	var mu sync.Mutex
	valid := map[*table]int64{}
	count := func(_ context.Context, _ int, c chunk) error {
		mu.Lock()
		valid[c.t] += int64(len(c.rows))
		mu.Unlock()
		return nil
	}
	persons := personSet{}
	if err := l.pump(ctx, 2, count, []*reader{l.reader(l.ts[0], nil, persons, l.fr.add)}); err != nil {
		return nil, nil, err
	}
	if err := l.pump(ctx, 2, count, l.readers(persons, l.fr.add)); err != nil {
		return nil, nil, err
	}
	return valid, persons, nil
}

// loadRows is the second pass: the same rows into the staging area. Rows
// the first pass rejected are skipped again without being reported twice.
func (l *load) loadRows(ctx context.Context, persons personSet) error {
	skip := func(*table, string, int, string, string) error { return nil }
	if err := l.pump(ctx, l.s.writers(), l.write, []*reader{l.reader(l.ts[0], persons, nil, skip)}); err != nil {
		return err
	}
	return l.pump(ctx, l.s.writers(), l.write, l.readers(persons, skip))
}

// pump runs the readers (each table's files are read by one goroutine)
// and n writers calling write until every row is handled or the first
// error.
func (l *load) pump(ctx context.Context, n int, write func(context.Context, int, chunk) error, readers []*reader) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	chunks := make(chan chunk, n)
	var rwg, wwg sync.WaitGroup
	for _, r := range readers {
		rwg.Add(1)
		go func() {
			defer rwg.Done()
			if err := r.read(ctx, chunks); err != nil {
				cancel(err)
			}
		}()
	}
	for w := range n {
		wwg.Add(1)
		go func() {
			defer wwg.Done()
			for c := range chunks {
				if ctx.Err() != nil {
					continue
				}
				if err := write(ctx, w, c); err != nil {
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
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if nospace.Is(err) {
		// Not the rows' fault: retrying them one by one would take
		// hours and blame every row.
		return fmt.Errorf("no space left on the target: %w; the target is unchanged", err)
	}
	for i, r := range c.rows {
		if err := l.s.write(ctx, w, c.t, c.rows[i:i+1]); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if nospace.Is(err) {
				return fmt.Errorf("no space left on the target: %w; the target is unchanged", err)
			}
			if ferr := l.fr.add(c.t, c.file, c.lines[i], "rejected by target: "+err.Error(), formatRow(r)); ferr != nil {
				return ferr
			}
			continue
		}
		l.loaded[c.t].Add(1)
	}
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

func scrubPass(err error, pass string) string {
	msg := err.Error()
	if pass != "" {
		msg = strings.ReplaceAll(msg, pass, "xxxxx")
	}
	return msg
}
