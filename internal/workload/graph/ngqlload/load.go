package ngqlload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
	"github.com/stampede-bench/stampede/internal/progress"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

// Config says what to load where.
type Config struct {
	// Target is nebula://user:pass@host:9669[,host2:9669]/SPACE.
	Target string
	// Data is the data set root (what `stampede gen ldbc --out` wrote).
	Data string
	// Drop drops the space first; without it an existing space is refused.
	Drop bool
	// Workers is the number of concurrent sessions inserting (default 4),
	// spread over the graphd addresses.
	Workers int
	// Batch is the rows per INSERT statement (default 100).
	Batch int
	// Partitions and Replicas shape the new space (defaults 24 and 3, as
	// nebula-bench).
	Partitions, Replicas int
	// SchemaWait bounds the wait for the schema on every graphd
	// (default DefaultSchemaWait).
	SchemaWait time.Duration
	// FailedFile receives failed rows and batches (default
	// DATA/failed_batches.csv), written only when something fails.
	FailedFile string
	// Getenv resolves NEBULA_USER / NEBULA_PASSWORD (may be nil).
	Getenv func(string) string
	// Progress, when not nil, receives the rows inserted so far (Total 0:
	// unknown) every 250 ms while they change, and a Final report when the
	// load ends (not with DryRun). The caller draws it (termbar).
	Progress progress.Func
	// DryRun, when set, receives every statement instead of a server.
	DryRun io.Writer
	// Dates is the format of the data set's date columns (default
	// ldbcfile.DatesAuto).
	Dates ldbcfile.DateFormat
}

// Stats is the outcome of Load.
type Stats struct {
	// Persons and Knows are Counts[PersonTag] and Counts[KnowsEdge].
	Persons, Knows, Failed int64
	// Counts are the rows written (a dry run: that would be written) by
	// tag and edge type, every name of Types; SHOW STATS agreed with them.
	Counts map[string]int64
	// Layout is the data set's CSV layout ("CsvBasic", ...); Activity is
	// set when it has forums and messages (not a person-graph data set).
	Layout   string
	Activity bool
	// Space settings read back from the target (DESCRIBE SPACE).
	Partitions, Replicas int64
	VidType              string
	// FailedFile is the failed rows/batches file, "" when none failed.
	FailedFile string
	Elapsed    time.Duration
	Meta       loader.Meta
}

// Load imports cfg.Data into the space of cfg.Target. Bad input (URL, an
// unreachable target, missing data, an existing space without Drop)
// gives usage errors (package usage).
func Load(ctx context.Context, cfg Config) (Stats, error) {
	t0 := time.Now()
	u, err := url.Parse(cfg.Target)
	if err != nil {
		return Stats{}, usage.Errorf("bad target URL")
	}
	ncfg, err := nebula.ParseConfig(u, cfg.Getenv)
	if err != nil {
		return Stats{}, usage.Errorf("%v", err)
	}
	if ncfg.Space == "" {
		return Stats{}, usage.Errorf("target %s names no space: want nebula://user:pass@host:9669/SPACE", ncfg.Redacted)
	}
	cfg.Workers = orDefault(cfg.Workers, DefaultWorkers)
	cfg.Batch = orDefault(cfg.Batch, DefaultBatch)
	cfg.Partitions = orDefault(cfg.Partitions, DefaultPartitions)
	cfg.Replicas = orDefault(cfg.Replicas, DefaultReplicaFactor)
	if cfg.SchemaWait <= 0 {
		cfg.SchemaWait = DefaultSchemaWait
	}
	if cfg.FailedFile == "" {
		cfg.FailedFile = filepath.Join(cfg.Data, "failed_batches.csv")
	}
	p, err := planLoad(cfg.Data)
	if err != nil {
		return Stats{}, err
	}
	fp, err := loader.Fingerprint(cfg.Data)
	if err != nil {
		return Stats{}, usage.Errorf("data set %s: %v", cfg.Data, err)
	}
	l := &load{cfg: cfg, ncfg: ncfg, plan: p, failed: &failedFile{path: cfg.FailedFile}}
	if cfg.DryRun == nil {
		if err := l.connect(ctx); err != nil {
			return Stats{}, err
		}
		defer l.admin.Close()
	}
	st, err := l.run(ctx)
	if cerr := l.failed.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Stats{}, err
	}
	abs, _ := filepath.Abs(cfg.Data)
	st.Meta = loader.Meta{Fingerprint: fp, Persons: st.Persons, Knows: st.Knows, Failed: st.Failed, LoadedAt: time.Now(), Data: abs,
		MaxPersonID: l.maxPerson, Layout: p.layout, Activity: p.activity}
	if err := l.exec(ctx, metaStatement(st.Meta, st.Counts)); err != nil {
		return Stats{}, fmt.Errorf("record load: %w", err)
	}
	if l.failed.n.Load() > 0 {
		st.FailedFile = cfg.FailedFile
	}
	st.Elapsed = time.Since(t0)
	return st, nil
}

func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

// load is one Load's state.
type load struct {
	cfg    Config
	ncfg   *nebula.Config
	admin  *nebula.Session // without a space until it exists
	plan   *plan
	failed *failedFile
	rows   atomic.Int64
	// maxPerson is the largest person id read.
	maxPerson int64
}

// connect opens the admin session (no space yet).
func (l *load) connect(ctx context.Context) error {
	c := *l.ncfg
	c.Space = ""
	s, err := nebula.Dial(ctx, c.Addrs[0], &c)
	if err != nil {
		return usage.Errorf("cannot open target %s: %v", l.ncfg.Redacted, err)
	}
	l.admin = s
	return nil
}

// exec runs one admin statement (or prints it on a dry run).
func (l *load) exec(ctx context.Context, stmt string) error {
	_, err := l.query(ctx, stmt)
	return err
}

func (l *load) query(ctx context.Context, stmt string) (*graphsvc.DataSet, error) {
	if l.cfg.DryRun != nil {
		_, err := fmt.Fprintln(l.cfg.DryRun, stmt+";")
		return nil, err
	}
	r, err := l.admin.Execute(ctx, stmt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", firstWords(stmt), err)
	}
	if r.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
		return nil, fmt.Errorf("%s: %w", firstWords(stmt), &nebula.ServerError{Code: r.ErrorCode, Msg: string(r.ErrorMsg)})
	}
	if r.Data == nil {
		return &graphsvc.DataSet{}, nil
	}
	return r.Data, nil
}

func (l *load) run(ctx context.Context) (Stats, error) {
	var st Stats
	space := l.ncfg.Space
	if l.cfg.DryRun == nil {
		exists, err := l.spaceExists(ctx, space)
		if err != nil {
			return st, err
		}
		if exists && !l.cfg.Drop {
			return st, usage.Errorf("%v: space %s exists in %s; use --drop to reload", loader.ErrLoaded, space, l.ncfg.Redacted)
		}
	}
	if l.cfg.Drop {
		if err := l.exec(ctx, "DROP SPACE IF EXISTS "+nebula.QuoteName(space)); err != nil {
			return st, err
		}
	}
	if err := l.exec(ctx, CreateSpace(space, l.cfg.Partitions, l.cfg.Replicas)); err != nil {
		return st, err
	}
	if err := l.readBackSpace(ctx, &st); err != nil {
		return st, err
	}
	if err := l.exec(ctx, "USE "+nebula.QuoteName(space)); err != nil {
		return st, err
	}
	for _, q := range SchemaStatements() {
		if err := l.exec(ctx, q); err != nil {
			return st, err
		}
	}
	if err := l.waitSchema(ctx); err != nil {
		return st, err
	}
	if err := l.exec(ctx, CreateIndex); err != nil {
		return st, err
	}
	stop := l.progress()
	in, err := l.newInserter(ctx)
	if err != nil {
		stop()
		return st, err
	}
	err = l.stream(ctx, l.plan, in)
	counts, ierr := in.finish()
	stop()
	if err = errors.Join(err, ierr); err != nil {
		return st, err
	}
	st.Counts, st.Layout, st.Activity = counts, l.plan.layout, l.plan.activity
	st.Persons, st.Knows = counts[PersonTag], counts[KnowsEdge]
	st.Failed = l.failed.n.Load()
	// Rows written before the index reached every storaged may be
	// missing from it: rebuild it once the data is in.
	if err := l.job(ctx, "REBUILD TAG INDEX "+PersonNameIndex); err != nil {
		return st, err
	}
	return st, l.verify(ctx, &st)
}

func (l *load) spaceExists(ctx context.Context, space string) (bool, error) {
	ds, err := l.query(ctx, "SHOW SPACES")
	if err != nil {
		return false, err
	}
	for _, r := range ds.Rows {
		if len(r.Values) > 0 && string(r.Values[0].SVal) == space {
			return true, nil
		}
	}
	return false, nil
}

// readBackSpace reads the space's settings from the target, so that what
// is reported is what the target has, not what was asked.
func (l *load) readBackSpace(ctx context.Context, st *Stats) error {
	ds, err := l.query(ctx, "DESCRIBE SPACE "+nebula.QuoteName(l.ncfg.Space))
	if err != nil || l.cfg.DryRun != nil {
		return err
	}
	col := func(name string) int {
		for i, c := range ds.ColumnNames {
			if string(c) == name {
				return i
			}
		}
		return -1
	}
	if len(ds.Rows) == 0 {
		return errors.New("DESCRIBE SPACE: no row")
	}
	r := ds.Rows[0].Values
	if i := col("Partition Number"); i >= 0 && i < len(r) && r[i].IVal != nil {
		st.Partitions = *r[i].IVal
	}
	if i := col("Replica Factor"); i >= 0 && i < len(r) && r[i].IVal != nil {
		st.Replicas = *r[i].IVal
	}
	if i := col("Vid Type"); i >= 0 && i < len(r) && r[i].SVal != nil {
		st.VidType = string(r[i].SVal)
	}
	if st.VidType != "" && st.VidType != "INT64" {
		return usage.Errorf("space %s has vid type %s; stampede loads INT64 vids: use --drop or another space", l.ncfg.Space, st.VidType)
	}
	return nil
}

// waitSchema polls every graphd until its SHOW TAGS and SHOW EDGES list
// the schema, as inserts fail on a graphd that has not seen it yet.
func (l *load) waitSchema(ctx context.Context) error {
	if l.cfg.DryRun != nil {
		fmt.Fprintf(l.cfg.DryRun, "-- wait until SHOW TAGS / SHOW EDGES on every graphd list the %d tags and edge types above\n", len(Types())+1)
		return nil
	}
	deadline := time.Now().Add(l.cfg.SchemaWait)
	for _, addr := range l.ncfg.Addrs {
		for {
			ok, err := l.schemaVisible(ctx, addr)
			if err != nil {
				return err
			}
			if ok {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("schema not visible on graphd %s after %v", addr, l.cfg.SchemaWait)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	return nil
}

func (l *load) schemaVisible(ctx context.Context, addr string) (bool, error) {
	s, err := nebula.Dial(ctx, addr, l.ncfg)
	if err != nil {
		var se *nebula.ServerError
		if errors.As(err, &se) && se.Code == graphsvc.ErrorCode_E_SPACE_NOT_FOUND {
			return false, nil // the space itself has not arrived yet
		}
		return false, err
	}
	defer s.Close()
	want := map[string]bool{MetaTag: true}
	for _, t := range Types() {
		want[t.Name] = true
	}
	for _, q := range []string{"SHOW TAGS", "SHOW EDGES"} {
		r, err := s.Execute(ctx, q)
		if err != nil {
			return false, err
		}
		if r.Data == nil {
			continue
		}
		for _, row := range r.Data.Rows {
			if len(row.Values) > 0 {
				delete(want, string(row.Values[0].SVal))
			}
		}
	}
	return len(want) == 0, nil
}

// progress reports the rows inserted to cfg.Progress until stopped, then
// sends the Final report.
func (l *load) progress() (stop func()) {
	if l.cfg.Progress == nil || l.cfg.DryRun != nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		last := int64(-1)
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				l.cfg.Progress(progress.Report{Done: l.rows.Load(), Final: true})
				return
			case <-tick.C:
				if n := l.rows.Load(); n != last {
					last = n
					l.cfg.Progress(progress.Report{Done: n})
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

func firstWords(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
