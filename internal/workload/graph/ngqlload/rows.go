package ngqlload

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// FailedHeader is the first line of the failed file: the data file, the
// 1-based line (of the first row, for a batch), the rows concerned, the
// reason (an ErrorCode for batches the target rejected) and the row as
// read (empty for batches).
const FailedHeader = "file|line|rows|reason|row"

// failedFile collects failed rows and batches; safe for concurrent use.
type failedFile struct {
	path string
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	n    atomic.Int64 // rows
	err  error
}

func (ff *failedFile) add(file string, line, rows int, reason, text string) error {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	ff.n.Add(int64(rows))
	if ff.err != nil {
		return ff.err
	}
	if ff.f == nil {
		if ff.f, ff.err = os.Create(ff.path); ff.err != nil {
			ff.err = fmt.Errorf("failed-rows file: %w", ff.err)
			return ff.err
		}
		ff.w = bufio.NewWriter(ff.f)
		ff.w.WriteString(FailedHeader + "\n")
	}
	reason = strings.NewReplacer("|", "/", "\n", " ").Replace(reason)
	fmt.Fprintf(ff.w, "%s|%d|%d|%s|%s\n", file, line, rows, reason, text)
	return nil
}

func (ff *failedFile) close() error {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	if ff.f == nil {
		return ff.err
	}
	if err := ff.w.Flush(); err != nil && ff.err == nil {
		ff.err = err
	}
	if err := ff.f.Close(); err != nil && ff.err == nil {
		ff.err = err
	}
	return ff.err
}

// batch is one INSERT statement with where its rows came from.
type batch struct {
	file       string
	line, rows int
	typ        string // tag or edge type
	stmt       string
}

// inserter runs batches on cfg.Workers sessions spread over the graphd
// addresses, retrying a failed batch twice; what still fails goes to the
// failed file with its error.
type inserter struct {
	l     *load
	ch    chan batch
	wg    sync.WaitGroup
	ok    map[string]*atomic.Int64 // rows written by type; read-only map
	errMu sync.Mutex
	err   error
}

// Attempts of one batch (nebula-importer retries 3 times too).
const attempts = 3

func (l *load) newInserter(ctx context.Context) (*inserter, error) {
	in := &inserter{l: l, ch: make(chan batch, 2*l.cfg.Workers), ok: map[string]*atomic.Int64{}}
	for _, t := range Types() {
		in.ok[t.Name] = new(atomic.Int64)
	}
	if l.cfg.DryRun != nil {
		in.wg.Add(1)
		go func() {
			defer in.wg.Done()
			for b := range in.ch {
				if _, err := fmt.Fprintln(l.cfg.DryRun, b.stmt+";"); err != nil {
					in.fail(err)
				}
				in.ok[b.typ].Add(int64(b.rows))
			}
		}()
		return in, nil
	}
	for w := range l.cfg.Workers {
		s, err := nebula.Dial(ctx, l.ncfg.Addrs[w%len(l.ncfg.Addrs)], l.ncfg)
		if err != nil {
			close(in.ch)
			in.wg.Wait()
			return nil, err
		}
		in.wg.Add(1)
		go in.work(ctx, s, w)
	}
	return in, nil
}

func (in *inserter) fail(err error) {
	in.errMu.Lock()
	if in.err == nil {
		in.err = err
	}
	in.errMu.Unlock()
}

func (in *inserter) work(ctx context.Context, s *nebula.Session, w int) {
	defer in.wg.Done()
	addrs := in.l.ncfg.Addrs
	for b := range in.ch {
		var last error
		for a := range attempts {
			if s == nil {
				var err error
				if s, err = nebula.Dial(ctx, addrs[(w+a)%len(addrs)], in.l.ncfg); err != nil {
					last = err
					continue
				}
			}
			r, err := s.Execute(ctx, b.stmt)
			if err != nil {
				s.Abandon()
				s, last = nil, err
			} else if r.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
				last = &nebula.ServerError{Code: r.ErrorCode, Msg: string(r.ErrorMsg)}
			} else {
				last = nil
				break
			}
			if ctx.Err() != nil {
				break
			}
			time.Sleep(time.Duration(a+1) * 100 * time.Millisecond)
		}
		if ctx.Err() != nil {
			in.fail(ctx.Err())
			continue
		}
		if last != nil {
			if err := in.l.failed.add(b.file, b.line, b.rows, last.Error(), ""); err != nil {
				in.fail(err)
			}
			continue
		}
		in.ok[b.typ].Add(int64(b.rows))
		in.l.rows.Add(int64(b.rows))
	}
	if s != nil {
		s.Close()
	}
}

// send queues a batch; it returns the first worker error, if any.
func (in *inserter) send(ctx context.Context, b batch) error {
	select {
	case in.ch <- b:
	case <-ctx.Done():
		return ctx.Err()
	}
	in.errMu.Lock()
	defer in.errMu.Unlock()
	return in.err
}

// finish waits for the queued batches and returns the rows written by
// type.
func (in *inserter) finish() (map[string]int64, error) {
	close(in.ch)
	in.wg.Wait()
	out := map[string]int64{}
	for n, c := range in.ok {
		out[n] = c.Load()
	}
	return out, in.err
}

// verify runs SUBMIT JOB STATS, waits for the job, and compares SHOW
// STATS with the rows written.
func (l *load) verify(ctx context.Context, st *Stats) error {
	if err := l.job(ctx, "SUBMIT JOB STATS"); err != nil {
		return err
	}
	ds, err := l.query(ctx, "SHOW STATS")
	if err != nil || l.cfg.DryRun != nil {
		return err
	}
	got := map[string]int64{}
	for _, r := range ds.Rows {
		if len(r.Values) >= 3 && r.Values[2].IVal != nil {
			got[string(r.Values[0].SVal)+" "+string(r.Values[1].SVal)] = *r.Values[2].IVal
		}
	}
	var bad []string
	for _, t := range Types() {
		kind, what := "Tag", "vertices"
		if t.Edge {
			kind, what = "Edge", "edges"
		}
		if n, want := got[kind+" "+t.Name], st.Counts[t.Name]; n != want {
			bad = append(bad, fmt.Sprintf("%d %s %s where %d were written", n, t.Name, what, want))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("verify: SHOW STATS counts %s (a count below the rows written means the files repeat a vertex id or an edge, which NebulaGraph overwrites)", strings.Join(bad, ", "))
	}
	return nil
}

// job submits a job statement and waits until SHOW JOB says FINISHED.
func (l *load) job(ctx context.Context, stmt string) error {
	ds, err := l.query(ctx, stmt)
	if err != nil {
		return err
	}
	if l.cfg.DryRun != nil {
		fmt.Fprintln(l.cfg.DryRun, "-- wait until SHOW JOB <id> says FINISHED")
		return nil
	}
	if len(ds.Rows) == 0 || len(ds.Rows[0].Values) == 0 || ds.Rows[0].Values[0].IVal == nil {
		return fmt.Errorf("%s: no job id", stmt)
	}
	job := *ds.Rows[0].Values[0].IVal
	deadline := time.Now().Add(10 * time.Minute)
	for {
		ds, err := l.query(ctx, "SHOW JOB "+strconv.FormatInt(job, 10))
		if err != nil {
			return err
		}
		status := ""
		for i, c := range ds.ColumnNames {
			if string(c) == "Status" && len(ds.Rows) > 0 && i < len(ds.Rows[0].Values) {
				status = string(ds.Rows[0].Values[i].SVal)
			}
		}
		if status == "FINISHED" {
			break
		}
		if status == "FAILED" || status == "STOPPED" || time.Now().After(deadline) {
			return fmt.Errorf("%s: job %d %s", stmt, job, status)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return nil
}
