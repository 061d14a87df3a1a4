package resultdir

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/envinfo"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

// sampleSnapshot is a one-scenario snapshot with a histogram, counters,
// rates, gauges, errors and notes.
func sampleSnapshot() *metrics.Snapshot {
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	h := metric.NewHistogram()
	for v := int64(1); v <= 5000; v += 7 {
		h.RecordValue(v)
	}
	sc := &metrics.ScenarioSnapshot{
		Name: "go.Go1Step", Executor: engine.ConstantVUs, Start: t0, End: t0.Add(30 * time.Second),
		Warmup:   5 * time.Second,
		Trends:   map[string]*metrics.Trend{metrics.ResponseTime: {Unit: metrics.UnitMicros, Hist: h}},
		Counters: map[string]int64{metrics.Requests: 715, metrics.Errors: 3},
		Rates:    map[string]*metrics.Rate{metrics.Checks: {Passes: 712, Fails: 3}},
		Gauges:   map[string]*metrics.Gauge{metrics.VUs: {Value: 0, Min: 0, Max: 50}},
		Errors:   map[string]int64{"timeout": 3},
		Units:    map[string]metrics.Unit{metrics.ResponseTime: metrics.UnitMicros},
		Notes:    []string{"in-memory target"},
	}
	return &metrics.Snapshot{Version: metrics.SnapshotVersion, Start: t0, End: t0.Add(30 * time.Second),
		Interrupted: true, Scenarios: []*metrics.ScenarioSnapshot{sc}}
}

// A result directory written with Prepare + WriteJSON loads back as written.
func TestWriteLoadRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "run")
	if err := Prepare(dir); err != nil {
		t.Fatal(err)
	}
	opts := Options{
		Args: []string{"run", "--vus", "50"}, Target: "postgres://bench@127.0.0.1/ldbc", InProcess: true,
		Scenarios: []ScenarioOptions{{Name: "go.Go1Step", Config: engine.Config{
			Executor: engine.RampingVUs, Stages: []engine.Stage{{Duration: 10 * time.Second, Target: 50}},
			GracefulStop: 30 * time.Second, TimeUnit: time.Second}}},
		Concurrent: true, Seed: 42, Segment: "1/3", Run: 2, Flags: map[string]string{"batch-size": "300"},
		Thresholds: []string{"responseTime: p(95)<200"}, Sweep: map[string]string{"vus": "50"},
		Monitor: []string{"db=http://127.0.0.1:9100/metrics"}, NICSpeed: 125e6,
	}
	env := envinfo.Fingerprint{Hostname: "h", OS: "linux", Arch: "amd64", Cores: 2, Threads: 4,
		Caches: map[string]string{"L2": "2048K"}, MemoryBytes: 24 << 30, GOMAXPROCS: 4, Target: "postgres://127.0.0.1/ldbc"}
	snap := sampleSnapshot()
	for name, v := range map[string]any{OptionsFile: opts, EnvFile: env, SnapshotFile: snap} {
		if err := WriteJSON(dir, name, v); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Dir != dir || !reflect.DeepEqual(r.Options, opts) || !reflect.DeepEqual(r.Env, env) {
		t.Errorf("loaded %+v\nwant options %+v env %+v", r, opts, env)
	}
	got, want := r.Snapshot.Scenarios[0], snap.Scenarios[0]
	if !got.Trends[metrics.ResponseTime].Hist.Equals(want.Trends[metrics.ResponseTime].Hist) {
		t.Error("histogram changed")
	}
	got.Trends, want.Trends = nil, nil
	if !reflect.DeepEqual(r.Snapshot, snap) {
		t.Errorf("snapshot %+v\nwant %+v", got, want)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !reflect.DeepEqual(names, []string{EnvFile, OptionsFile, SnapshotFile}) {
		t.Errorf("files %v (temporary files left?)", names)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, OptionsFile)); !strings.HasSuffix(string(b), "}\n") || !strings.Contains(string(b), "\n  \"target\"") {
		t.Errorf("options.json is not indented JSON with a final newline:\n%s", b)
	}
}

// A snapshot without options.json and env.json (a merged or older result)
// loads with those empty; a corrupt file is an error naming it.
func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		wantErr string // "" for success
	}{
		{"snapshot only", map[string]string{SnapshotFile: `{"version":1,"scenarios":[]}`}, ""},
		{"no snapshot", map[string]string{OptionsFile: `{}`}, "is not a result directory (no snapshot.json)"},
		{"corrupt snapshot", map[string]string{SnapshotFile: `{"version":`}, SnapshotFile + ": unexpected end of JSON input"},
		{"bad histogram", map[string]string{SnapshotFile: `{"version":1,"scenarios":[{"name":"s","trends":{"x":{"unit":1,"hdr":"%%"}}}]}`},
			"decode histogram"},
		{"corrupt options", map[string]string{SnapshotFile: `{"version":1}`, OptionsFile: `[`}, OptionsFile + ": unexpected end"},
		{"corrupt env", map[string]string{SnapshotFile: `{"version":1}`, EnvFile: `{"cores":"two"}`}, EnvFile + ": json: cannot unmarshal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r, err := Load(dir)
			if tc.wantErr == "" {
				if err != nil || r.Snapshot == nil || r.Snapshot.Version != 1 || r.Options.Target != "" {
					t.Fatalf("Load = %+v, %v", r, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Load error %v, want %q", err, tc.wantErr)
			}
			if tc.name == "no snapshot" && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%v does not wrap os.ErrNotExist", err)
			}
		})
	}
}

// Prepare refuses a directory that holds a run and leaves it untouched;
// it accepts a new, an empty or an unrelated directory.
func TestPrepareRefusesToOverwrite(t *testing.T) {
	parent := t.TempDir()
	run := filepath.Join(parent, "run")
	if err := Prepare(run); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(run, SnapshotFile, sampleSnapshot()); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(run, ConsoleFile, []byte("summary\n")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(run, SnapshotFile))
	err := Prepare(run)
	if want := "result directory " + run + " already holds a run; choose another --out"; err == nil || err.Error() != want {
		t.Fatalf("Prepare = %v, want %q", err, want)
	}
	after, _ := os.ReadFile(filepath.Join(run, SnapshotFile))
	if string(after) != string(before) {
		t.Error("the refused directory's snapshot changed")
	}
	if b, _ := os.ReadFile(filepath.Join(run, ConsoleFile)); string(b) != "summary\n" {
		t.Errorf("summary.txt now %q", b)
	}
	other := filepath.Join(parent, "other")
	os.Mkdir(other, 0o755)
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("x"), 0o644)
	if err := Prepare(other); err != nil {
		t.Errorf("Prepare(directory without a run) = %v", err)
	}
	if err := Prepare(filepath.Join(parent, "new", "deep")); err != nil {
		t.Errorf("Prepare(new nested directory) = %v", err)
	}
	file := filepath.Join(parent, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	if err := Prepare(file); err == nil || !strings.HasPrefix(err.Error(), "create result directory:") {
		t.Errorf("Prepare(a file) = %v", err)
	}
}

// WriteFile replaces a file whole and leaves nothing behind on failure.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFile(dir, "x.txt", []byte("first version, longer")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dir, "x.txt", []byte("second")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "x.txt")); string(b) != "second" {
		t.Errorf("x.txt = %q", b)
	}
	missing := filepath.Join(dir, "missing")
	if err := WriteFile(missing, "y.txt", []byte("y")); err == nil || !strings.HasPrefix(err.Error(), "write y.txt:") {
		t.Errorf("WriteFile into a missing directory = %v", err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if err := WriteFile(dir, "sub", []byte("over a directory")); err == nil {
		t.Error("WriteFile replaced a directory")
	}
	if err := WriteJSON(dir, "bad.json", func() {}); err == nil || !strings.HasPrefix(err.Error(), "encode bad.json:") {
		t.Errorf("WriteJSON(func) = %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left in dir: %v, want x.txt and sub", names)
	}
}

func TestScanSeries(t *testing.T) {
	dir := t.TempDir()
	n := 0
	if err := ScanSeries(dir, func(*metrics.Point) error { n++; return nil }); err != nil || n != 0 {
		t.Errorf("no series file: %d points, %v", n, err)
	}
	lines := `{"scenario":"s","sec":0,"counts":{"iterations":3},"vus":2,"rt":{"n":0}}
{"scenario":"s","sec":1,"counts":{},"vus":2,"rt":{"n":0},"hdr":"not base64!"}
{"scenario":"s","sec":2`
	if err := os.WriteFile(filepath.Join(dir, SeriesFile), []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var secs []int64
	err := ScanSeries(dir, func(p *metrics.Point) error { secs = append(secs, p.Sec); return nil })
	if !reflect.DeepEqual(secs, []int64{0, 1}) || err == nil || !strings.Contains(err.Error(), SeriesFile) {
		t.Errorf("ScanSeries: %v, %v; want [0 1] and an error naming the file", secs, err)
	}
	secs = nil
	err = ReadSeries(dir, func(p *metrics.Point) error { secs = append(secs, p.Sec); return nil })
	if !reflect.DeepEqual(secs, []int64{0}) || err == nil || !strings.Contains(err.Error(), "decode histogram") {
		t.Errorf("ReadSeries: %v, %v; want [0] then a histogram error", secs, err)
	}
	stop := errors.New("stop")
	secs = nil
	if err := ScanSeries(dir, func(p *metrics.Point) error { secs = append(secs, p.Sec); return stop }); err != stop || len(secs) != 1 {
		t.Errorf("callback error: %v after %v", err, secs)
	}
}

func TestFindMissingAndStampName(t *testing.T) {
	if _, err := Find(filepath.Join(t.TempDir(), "nope")); err == nil || !strings.HasPrefix(err.Error(), "read results:") {
		t.Errorf("Find(missing) = %v", err)
	}
	if got := StampName(time.Date(2026, 11, 30, 20, 5, 9, 0, time.UTC)); got != "2026-11-30T20-05-09" {
		t.Errorf("StampName = %q", got)
	}
}
