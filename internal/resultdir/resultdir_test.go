package resultdir

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

func TestFindAndPrepare(t *testing.T) {
	parent := t.TempDir()
	for _, name := range []string{"run-02", "run-01"} {
		dir := filepath.Join(parent, name)
		if err := Prepare(dir); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(dir, SnapshotFile, &metrics.Snapshot{Version: metrics.SnapshotVersion}); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(parent, "not-a-run"), 0o755)
	got, err := Find(parent)
	if err != nil || len(got) != 2 || filepath.Base(got[0]) != "run-01" {
		t.Fatalf("Find = %v, %v", got, err)
	}
	if one, _ := Find(got[1]); len(one) != 1 || one[0] != got[1] {
		t.Errorf("Find(run dir) = %v", one)
	}
	if _, err := Find(filepath.Join(parent, "not-a-run")); err == nil {
		t.Error("empty dir accepted")
	}
	if err := Prepare(got[0]); err == nil {
		t.Error("Prepare accepted a directory that holds a run")
	}
	if _, err := Load(filepath.Join(parent, "not-a-run")); err == nil {
		t.Error("Load accepted a directory without snapshot")
	}
	if left, _ := filepath.Glob(filepath.Join(got[0], ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestSeriesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	w, err := NewSeriesWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := metric.NewHistogram()
	for v := int64(1); v <= 1000; v++ {
		h.RecordValue(v)
	}
	base := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	w.Observe(&metrics.Point{Scenario: "s", Sec: 0, Time: base, Counts: map[string]int64{"iterations": 1000}, Hist: h, RT: metric.StatsOf(h)})
	w.Observe(&metrics.Point{Scenario: "s", Sec: 1, Time: base.Add(time.Second), Counts: map[string]int64{}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var points []*metrics.Point
	if err := ReadSeries(dir, func(p *metrics.Point) error { points = append(points, p); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(points) != 2 || !points[0].Hist.Equals(h) || points[0].Counts["iterations"] != 1000 || points[1].Hist != nil {
		t.Fatalf("points = %+v", points)
	}
	if points[0].RT.P99 != h.ValueAtPercentile(99) {
		t.Errorf("p99 %d vs %d", points[0].RT.P99, h.ValueAtPercentile(99))
	}
}
