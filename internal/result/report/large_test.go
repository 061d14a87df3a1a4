package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/outputtest"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// hourRun records a 1-hour run of 5 concurrent scenarios through the real
// metrics pipeline (Registry → Recorder → Aggregator → SeriesWriter) into
// dir: 18,000 scenario-seconds with their histograms.
func hourRun(t testing.TB, dir string) *resultdir.Result {
	t.Helper()
	const (
		seconds   = 3600
		perSecond = 200 // samples per second and scenario; the shape, not the rate, matters here
	)
	names := []string{"go.Go1Step", "go.Go2Step", "go.Go3Step", "find_path.FindShortestPath", "insert.InsertPersonScenario"}
	if err := resultdir.Prepare(dir); err != nil {
		t.Fatal(err)
	}
	sw, err := resultdir.NewSeriesWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := metrics.NewRegistry()
	// A clock an hour and more in the past: the aggregator finishes each
	// second as soon as its batch arrives.
	clock := metrics.ClockAt(time.Now().Add(-2 * time.Hour).Truncate(time.Second))
	agg := metrics.NewAggregator(reg, clock, names, sw.Observe)
	go agg.Run()
	r := outputtest.Rand(7)
	opts := resultdir.Options{Args: []string{"run", "-d", "1h", "--concurrent"}, Target: "sqlite://big.db", Concurrent: true}
	for i, name := range names {
		rec := agg.Recorder(i, 0)
		agg.Mark(i, clock.Wall(0), time.Time{}, false, "constant-vus")
		agg.SetGauge(i, metrics.IDVUs, 50)
		base := int64(1000 * (i + 1))
		for s := range seconds {
			at := time.Duration(s) * time.Second
			for k := range perSecond {
				v := base/2 + r.Between(0, base)
				if k == 0 && s%97 == 0 {
					v *= 40
				}
				rec.Trend(metrics.IDResponseTime, at, v)
				rec.Add(metrics.IDRequests, at, 1)
				if k%50 == 49 && s%10 == 0 {
					rec.Error(at, fmt.Sprintf("E_%d: something failed", k%3))
				}
			}
			rec.Add(metrics.IDIterations, at, perSecond)
		}
		rec.Flush()
		agg.Mark(i, time.Time{}, clock.Wall(seconds*time.Second), false, "")
		opts.Scenarios = append(opts.Scenarios, resultdir.ScenarioOptions{Name: name, Config: engine.Config{Executor: "constant-vus", VUs: 50, Duration: time.Hour}})
	}
	agg.Close()
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := resultdir.WriteJSON(dir, resultdir.SnapshotFile, agg.Snapshot()); err != nil {
		t.Fatal(err)
	}
	if err := resultdir.WriteJSON(dir, resultdir.OptionsFile, opts); err != nil {
		t.Fatal(err)
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestHourReport checks the numbers: the report of a 1-hour run
// with 5 scenarios is under 5 MB and renders in Chromium in under 2 s.
func TestHourReport(t *testing.T) {
	if testing.Short() {
		t.Skip("records 18,000 scenario-seconds")
	}
	dir := t.TempDir()
	start := time.Now()
	res := hourRun(t, filepath.Join(dir, "hour"))
	t.Logf("recorded 5 × 1 h in %v", time.Since(start).Round(time.Millisecond))

	start = time.Now()
	page := filepath.Join(dir, "report.html")
	if err := WriteFile(page, []*resultdir.Result{res}, Options{}); err != nil {
		t.Fatal(err)
	}
	built := time.Since(start)
	fi, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("report built in %v: %.2f MB", built.Round(time.Millisecond), float64(fi.Size())/1e6)
	if fi.Size() >= 5_000_000 {
		t.Errorf("report is %d bytes, want < 5 MB", fi.Size())
	}
	p, err := Build([]*resultdir.Result{res}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range p.Runs[0].Scenarios {
		if sc.Series == nil || len(sc.Series.Req) > 600 || len(sc.Series.Req) < 500 || sc.Series.Step != 6 {
			t.Fatalf("%s: series of %d points, step %d", sc.Name, len(sc.Series.Req), sc.Series.Step)
		}
		var total float64
		for i, v := range sc.Series.Req {
			w := min(sc.Series.Step, 3600-i*sc.Series.Step)
			total += v * float64(w)
		}
		if d := total - float64(sc.Summary.Requests); d > 1 || d < -1 {
			t.Errorf("%s: series hold %v requests, summary %d", sc.Name, total, sc.Summary.Requests)
		}
	}

	bin := chromium(t)
	st := checkPage(t, bin, page, 5*4+2, "report-hour-5-scenarios.png")
	ready, _ := strconv.Atoi(st.body["ready-ms"])
	if ready <= 0 || ready >= 2000 {
		t.Errorf("page ready after %d ms from navigation, want < 2000", ready)
	}
}
