package merge

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/metric"
)

// part describes one synthetic result directory.
type part struct {
	segment   string
	zero      time.Time // wall time of second 0
	scenarios []string
	secs      int // seconds of series per scenario
	perSec    int // samples per scenario and second
	seed      uint64
	config    engine.Config
	csvRows   []string
}

// truth accumulates every sample the parts recorded, per scenario and per
// (scenario, wall second), to check the merge against.
type truth struct {
	hist     map[string]*hdr.Histogram
	sec      map[string]*hdr.Histogram // scenario@unix
	iters    map[string]int64
	errCount map[string]int64
}

func newTruth() *truth {
	return &truth{hist: map[string]*hdr.Histogram{}, sec: map[string]*hdr.Histogram{}, iters: map[string]int64{}, errCount: map[string]int64{}}
}

func (tr *truth) record(sc string, wall time.Time, v int64) {
	if tr.hist[sc] == nil {
		tr.hist[sc] = metric.NewHistogram()
	}
	tr.hist[sc].RecordValue(v)
	k := fmt.Sprintf("%s@%d", sc, wall.Unix())
	if tr.sec[k] == nil {
		tr.sec[k] = metric.NewHistogram()
	}
	tr.sec[k].RecordValue(v)
	tr.iters[sc]++
}

// writePart writes a result directory for p and records its samples in tr.
func writePart(tb testing.TB, dir string, p part, tr *truth) {
	tb.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(p.seed, 7))
	snap := &metrics.Snapshot{Version: metrics.SnapshotVersion, Start: p.zero, End: p.zero.Add(time.Duration(p.secs) * time.Second)}
	sw, err := resultdir.NewSeriesWriter(dir)
	if err != nil {
		tb.Fatal(err)
	}
	opts := resultdir.Options{Target: "http://127.0.0.1:1/", Segment: p.segment, Seed: 1, Thresholds: []string{"responseTime: p(99)<10000"}}
	for _, name := range p.scenarios {
		sc := &metrics.ScenarioSnapshot{
			Name: name, Executor: p.config.Executor, Start: snap.Start, End: snap.End,
			Trends:   map[string]*metrics.Trend{metrics.ResponseTime: {Unit: metrics.UnitMicros, Hist: metric.NewHistogram()}},
			Counters: map[string]int64{}, Rates: map[string]*metrics.Rate{}, Gauges: map[string]*metrics.Gauge{metrics.VUs: {Value: 2, Min: 0, Max: 2}},
			Errors: map[string]int64{}, Units: map[string]metrics.Unit{metrics.ResponseTime: metrics.UnitMicros},
		}
		for s := 0; s < p.secs; s++ {
			h := metric.NewHistogram()
			wall := p.zero.Add(time.Duration(s) * time.Second)
			var errs int64
			for range p.perSec {
				v := int64(1 + rng.ExpFloat64()*2000)
				if rng.IntN(50) == 0 {
					v = int64(rng.IntN(3_000_000)) + 1 // a tail
				}
				h.RecordValue(v)
				sc.Trends[metrics.ResponseTime].Hist.RecordValue(v)
				tr.record(name, wall, v)
				if rng.IntN(20) == 0 {
					errs++
				}
			}
			sc.Counters[metrics.Iterations] += int64(p.perSec)
			sc.Counters[metrics.Errors] += errs
			tr.errCount[name] += errs
			pt := &metrics.Point{Scenario: name, Sec: int64(s), Time: wall, VUs: 2,
				Counts: map[string]int64{metrics.Iterations: int64(p.perSec)}, Hist: h, RT: metric.StatsOf(h)}
			if errs > 0 {
				pt.Counts[metrics.Errors] = errs
				pt.Errors = map[string]int64{"boom": errs}
				sc.Errors["boom"] += errs
			}
			sw.Observe(pt)
		}
		sc.Rates[metrics.Checks] = &metrics.Rate{Passes: sc.Counters[metrics.Iterations] - sc.Counters[metrics.Errors], Fails: sc.Counters[metrics.Errors]}
		snap.Scenarios = append(snap.Scenarios, sc)
		opts.Scenarios = append(opts.Scenarios, resultdir.ScenarioOptions{Name: name, Config: p.config})
	}
	if err := sw.Close(); err != nil {
		tb.Fatal(err)
	}
	for _, w := range []struct {
		name string
		v    any
	}{{resultdir.SnapshotFile, snap}, {resultdir.OptionsFile, opts}, {resultdir.EnvFile, map[string]string{"hostname": "host-" + p.segment}}} {
		if err := resultdir.WriteJSON(dir, w.name, w.v); err != nil {
			tb.Fatal(err)
		}
	}
	if p.csvRows != nil {
		body := "timestamp,query,latency,responseTime,isSucceed,rows,errorMsg\n" + strings.Join(p.csvRows, "\n")
		if err := os.WriteFile(filepath.Join(dir, resultdir.RequestsFile), []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func segmentedParts(n int, zeroSkew time.Duration) []part {
	whole := engine.Config{Executor: engine.ConstantVUs, VUs: 10, Duration: 5 * time.Second}.Defaults()
	var parts []part
	for i := 1; i <= n; i++ {
		seg := executor.Segment{Index: i, Count: n}
		c, _ := seg.Apply(whole)
		parts = append(parts, part{segment: seg.String(), zero: t0.Add(time.Duration(i-1) * zeroSkew),
			scenarios: []string{"go.Go1Step", "go.Go2Step"}, secs: 5, perSec: 200 + 37*i, seed: uint64(i), config: c})
	}
	return parts
}

// TestMergeExact: merging four segments gives exactly the histograms,
// counts and per-second series of one process that saw all samples.
func TestMergeExact(t *testing.T) {
	root := t.TempDir()
	tr := newTruth()
	var dirs []string
	for i, p := range segmentedParts(4, 0) {
		d := filepath.Join(root, "parts", fmt.Sprintf("seg-%d", i+1))
		writePart(t, d, p, tr)
		dirs = append(dirs, d)
	}
	expanded, err := Expand([]string{filepath.Join(root, "parts")})
	if err != nil || !reflect.DeepEqual(expanded, dirs) {
		t.Fatalf("Expand = %v, %v; want %v", expanded, err, dirs)
	}
	out := filepath.Join(root, "merged")
	res, err := Merge(dirs, out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
	loaded, err := resultdir.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range tr.hist {
		sc := loaded.Snapshot.Scenario(name)
		if sc == nil {
			t.Fatalf("scenario %s missing", name)
		}
		got := sc.Trends[metrics.ResponseTime].Hist
		if !reflect.DeepEqual(got.Export().Counts, want.Export().Counts) {
			t.Errorf("%s: merged histogram differs from the histogram of all samples", name)
		}
		for _, q := range []float64{50, 90, 95, 99, 99.9, 100} {
			if g, w := got.ValueAtPercentile(q), want.ValueAtPercentile(q); g != w {
				t.Errorf("%s p%v = %d, want %d", name, q, g, w)
			}
		}
		if g := sc.Counters[metrics.Iterations]; g != tr.iters[name] {
			t.Errorf("%s iterations = %d, want %d", name, g, tr.iters[name])
		}
		if g := sc.Counters[metrics.Errors]; g != tr.errCount[name] || sc.Errors["boom"] != g {
			t.Errorf("%s errors = %d (by message %d), want %d", name, g, sc.Errors["boom"], tr.errCount[name])
		}
		if g := sc.Gauges[metrics.VUs].Value; g != 8 {
			t.Errorf("%s vus = %v, want 8 (4 × 2)", name, g)
		}
	}
	if loaded.Options.Segment != "1/4,2/4,3/4,4/4" {
		t.Errorf("options segment = %q", loaded.Options.Segment)
	}
	if c := loaded.Options.Scenarios[0].Config; c.VUs != 10 || c.Executor != engine.ConstantVUs {
		t.Errorf("combined config = %+v, want the whole 10 VUs", c)
	}
	if len(loaded.Options.Thresholds) != 1 {
		t.Errorf("thresholds = %v", loaded.Options.Thresholds)
	}
	checkSeries(t, out, tr, 2*5)
	for i := 1; i <= 4; i++ {
		if _, err := os.Stat(filepath.Join(out, fmt.Sprintf("env-%d.json", i))); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, resultdir.RequestsFile)); !os.IsNotExist(err) {
		t.Errorf("requests.csv written without Options.Requests: %v", err)
	}
}

// checkSeries compares every merged point with the truth per wall second.
func checkSeries(t *testing.T, out string, tr *truth, wantPoints int) {
	t.Helper()
	n := 0
	err := resultdir.ReadSeries(out, func(p *metrics.Point) error {
		n++
		want := tr.sec[fmt.Sprintf("%s@%d", p.Scenario, p.Time.Unix())]
		if want == nil {
			return fmt.Errorf("unexpected point %s second %d at %s", p.Scenario, p.Sec, p.Time)
		}
		if !reflect.DeepEqual(p.Hist.Export().Counts, want.Export().Counts) {
			return fmt.Errorf("%s second %d: histogram differs", p.Scenario, p.Sec)
		}
		if p.RT != metric.StatsOf(want) || p.Counts[metrics.Iterations] != want.TotalCount() {
			return fmt.Errorf("%s second %d: stats %+v, want %+v", p.Scenario, p.Sec, p.RT, metric.StatsOf(want))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != wantPoints {
		t.Errorf("%d points, want %d", n, wantPoints)
	}
}

// TestMergeAlignsByTime: parts whose clocks started 1 s apart (no common
// --start-at) are aligned on wall time.
func TestMergeAlignsByTime(t *testing.T) {
	root := t.TempDir()
	tr := newTruth()
	var dirs []string
	for i, p := range segmentedParts(3, time.Second) {
		d := filepath.Join(root, fmt.Sprint(i))
		writePart(t, d, p, tr)
		dirs = append(dirs, d)
	}
	out := filepath.Join(root, "merged")
	if _, err := Merge(dirs, out, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	checkSeries(t, out, tr, 2*(5+2)) // seconds 0..6
}

func TestMergeWarningsAndErrors(t *testing.T) {
	root := t.TempDir()
	tr := newTruth()
	parts := segmentedParts(4, 0)
	var dirs []string
	for i, p := range parts[:3] {
		p.csvRows = []string{fmt.Sprintf("1700000000,q%d,,10,true,1,", i), fmt.Sprintf("1700000001,q%d,,11,true,1,", i)}
		d := filepath.Join(root, fmt.Sprint(i))
		writePart(t, d, p, tr)
		dirs = append(dirs, d)
	}
	res, err := Merge(dirs, filepath.Join(root, "m"), Options{Requests: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "4/4 are missing") {
		t.Errorf("warnings = %q, want segment 4/4 missing", res.Warnings)
	}
	csv, err := os.ReadFile(filepath.Join(root, "m", resultdir.RequestsFile))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(csv)), "\n"); len(lines) != 7 || !strings.HasPrefix(lines[0], "timestamp,") || strings.Count(string(csv), "timestamp") != 1 {
		t.Errorf("requests.csv:\n%s", csv)
	}

	if _, err := Merge(dirs, filepath.Join(root, "m"), Options{}); err == nil || !strings.Contains(err.Error(), "already holds a run") {
		t.Errorf("merge into an existing result: %v", err)
	}
	if _, err := Merge(dirs, filepath.Join(dirs[0], "sub"), Options{}); err == nil || !strings.Contains(err.Error(), "inside") {
		t.Errorf("merge into an input: %v", err)
	}
	if _, err := Expand([]string{dirs[0], root}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("Expand with a repeated dir: %v", err)
	}
	if _, err := Expand([]string{t.TempDir()}); err == nil {
		t.Error("Expand of an empty dir succeeded")
	}
}

// TestMergeIdleSegmentExecutor: the first segment had no share (ran the
// idle ramping-vus); the merged scenario keeps the real executor.
func TestMergeIdleSegmentExecutor(t *testing.T) {
	root := t.TempDir()
	tr := newTruth()
	whole := engine.Config{Executor: engine.SharedIterations, VUs: 1, Iterations: 1}.Defaults()
	var dirs []string
	for i := 1; i <= 2; i++ {
		seg := executor.Segment{Index: 3 - i, Count: 2} // 2/2 (idle) first
		c, _ := seg.Apply(whole)
		p := part{segment: seg.String(), zero: t0, scenarios: []string{"s"}, secs: 1, perSec: 1, seed: 1, config: c}
		d := filepath.Join(root, fmt.Sprint(i))
		writePart(t, d, p, tr)
		dirs = append(dirs, d)
	}
	res, err := Merge(dirs, filepath.Join(root, "m"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Snapshot.Scenarios[0].Executor; got != engine.SharedIterations {
		t.Errorf("executor = %s", got)
	}
	if got := res.Options.Scenarios[0].Config; !reflect.DeepEqual(got, whole) {
		t.Errorf("combined = %+v, want %+v", got, whole)
	}
}

// BenchmarkMerge100x5 merges 100 result dirs of 5 scenarios × 10 s
// (500 responses per second each); BenchmarkMerge100x5x60s the same with
// one-minute scenarios (30,000 per-second histograms).
func BenchmarkMerge100x5(b *testing.B)     { benchmarkMerge(b, 100, 10) }
func BenchmarkMerge100x5x60s(b *testing.B) { benchmarkMerge(b, 100, 60) }

func benchmarkMerge(b *testing.B, dirs, secs int) {
	root := b.TempDir()
	tr := newTruth()
	var parts []string
	whole := engine.Config{Executor: engine.ConstantVUs, VUs: 1000, Duration: time.Duration(secs) * time.Second}.Defaults()
	for i := 1; i <= dirs; i++ {
		seg := executor.Segment{Index: i, Count: dirs}
		c, _ := seg.Apply(whole)
		p := part{segment: seg.String(), zero: t0, scenarios: []string{"a", "b", "c", "d", "e"}, secs: secs, perSec: 500, seed: uint64(i), config: c}
		d := filepath.Join(root, "parts", fmt.Sprintf("%03d", i))
		writePart(b, d, p, tr)
		parts = append(parts, d)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := Merge(parts, filepath.Join(root, fmt.Sprint("m", i)), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
