package resultdir

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

// TestSeriesOutput: series.jsonl appears on Start and reads back every
// observed second, histogram included.
func TestSeriesOutput(t *testing.T) {
	dir := t.TempDir()
	o := NewSeriesOutput(dir)
	if _, err := os.Stat(filepath.Join(dir, SeriesFile)); err == nil {
		t.Fatal("created before Start")
	}
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	for sec := range int64(3) {
		h := metric.NewHistogram()
		h.RecordValue(100 * (sec + 1))
		o.Observe(&metrics.Point{Scenario: "s", Sec: sec, Time: time.Unix(sec, 0), Hist: h, RT: metric.StatsOf(h)})
	}
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	var secs []int64
	err := ReadSeries(dir, func(p *metrics.Point) error {
		if p.Hist == nil || p.Hist.Max() < 100*(p.Sec+1) {
			t.Errorf("second %d: histogram lost", p.Sec)
		}
		secs = append(secs, p.Sec)
		return nil
	})
	if err != nil || len(secs) != 3 {
		t.Errorf("read back %v: %v", secs, err)
	}
	if err := NewSeriesOutput(filepath.Join(dir, "missing")).Start(); err == nil {
		t.Error("Start in a missing directory succeeded")
	}
}
