package loader

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stampede-bench/stampede/internal/progress"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

// reports collects what Load sends to Config.Progress.
type reports struct {
	mu  sync.Mutex
	got []progress.Report
}

func (r *reports) add(p progress.Report) {
	r.mu.Lock()
	r.got = append(r.got, p)
	r.mu.Unlock()
}

// check asserts the protocol: a first report with the total and nothing
// done, Done never going back, exactly one Final report, and it last.
func (r *reports) check(t *testing.T) (first, final progress.Report) {
	t.Helper()
	if len(r.got) < 2 {
		t.Fatalf("reports = %+v, want at least a first and a final one", r.got)
	}
	first, final = r.got[0], r.got[len(r.got)-1]
	if first.Done != 0 || first.Total <= 0 || first.Final {
		t.Errorf("first report = %+v, want the total and nothing done", first)
	}
	for i, p := range r.got {
		if p.Final != (i == len(r.got)-1) {
			t.Errorf("report %d of %d = %+v: Final must be set on the last report only", i+1, len(r.got), p)
		}
		if p.Total != first.Total {
			t.Errorf("report %d = %+v: total changed from %d", i+1, p, first.Total)
		}
		if i > 0 && p.Done < r.got[i-1].Done {
			t.Errorf("report %d = %+v: done went back from %d", i+1, p, r.got[i-1].Done)
		}
	}
	return first, final
}

// dataRows counts the data rows of a data set written by ldbctest.
func dataRows(set map[string][]string) int64 {
	var n int64
	for _, rows := range set {
		n += int64(len(rows))
	}
	return n
}

func TestLoadReportsProgress(t *testing.T) {
	dir := t.TempDir()
	ldbctest.Write(t, dir, ldbctest.Tiny)
	var r reports
	if _, err := Load(t.Context(), Config{Target: "sqlite://" + filepath.Join(t.TempDir(), "g.db"), Data: dir, Progress: r.add}); err != nil {
		t.Fatal(err)
	}
	first, final := r.check(t)
	// Both passes read every row of the loaded tables: Total is reached,
	// and it counts each row twice.
	if final.Done != first.Total || first.Total%2 != 0 || first.Total > 2*dataRows(ldbctest.Tiny) {
		t.Errorf("done %d at the end of a total %d; want the total, an even number up to %d", final.Done, first.Total, 2*dataRows(ldbctest.Tiny))
	}
}

// A load refused after validation still ends its progress, short of the
// total: the load pass never ran.
func TestRejectedLoadEndsProgress(t *testing.T) {
	dir := t.TempDir()
	ldbctest.Write(t, dir, dirty)
	var r reports
	_, err := Load(t.Context(), Config{Target: "sqlite://" + filepath.Join(t.TempDir(), "g.db"), Data: dir,
		FailedRows: filepath.Join(t.TempDir(), "f.csv"), Progress: r.add})
	if !errors.Is(err, ErrRejected) {
		t.Fatalf("err = %v, want ErrRejected", err)
	}
	first, final := r.check(t)
	if final.Done <= 0 || final.Done >= first.Total {
		t.Errorf("done %d of %d at the end; want some rows read, and fewer than the total", final.Done, first.Total)
	}
}

// Without Progress nothing is counted or reported, and the meter methods
// are safe on nil.
func TestNilMeter(t *testing.T) {
	var m *meter
	if newMeter(nil, t.TempDir(), []string{ldbcfile.PersonPath}, 2) != nil {
		t.Error("newMeter(nil report) != nil")
	}
	m.add(1)
	m.finish()
}
