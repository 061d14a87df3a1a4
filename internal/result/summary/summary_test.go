package summary

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/golden"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/outputtest"
	"github.com/stampede-bench/stampede/threshold"
)

// seedThresholds are evaluated on the test snapshot: some pass, some fail,
// one has no data.
var seedThresholds = []string{
	"responseTime: p(95)<200",
	"responseTime{scenario:go.Go2Step}: p(95)<200; p(99.9)<500",
	"responseTime{scenario:insert.InsertPersonScenario}: p(95)<200",
	"checks: rate>0.99",
	"dropped_iterations: count==0",
	"iterations{scenario:go.Go2Step}: rate>=100",
	"latency{scenario:kafka.Produce}: p(99)<10",
}

func evaluated(t *testing.T, snap *metrics.Snapshot) []threshold.Result {
	t.Helper()
	ts, err := threshold.ParseAll(seedThresholds)
	if err != nil {
		t.Fatal(err)
	}
	return threshold.Evaluate(snap, ts)
}

func TestConsoleGolden(t *testing.T) {
	snap := outputtest.Snapshot(t)
	rs := evaluated(t, snap)
	tests := []struct {
		name string
		opts ConsoleOptions
	}{
		{"console.golden", ConsoleOptions{Thresholds: rs}},
		{"console_color.golden", ConsoleOptions{Thresholds: rs, Color: true}},
		{"console_plain.golden", ConsoleOptions{}},
		{"console_narrow.golden", ConsoleOptions{Width: 60, TopErrors: 3, Thresholds: rs}},
		{"console_compact.golden", ConsoleOptions{Thresholds: rs, Mode: ModeCompact}},
		{"console_full.golden", ConsoleOptions{Thresholds: rs, Mode: ModeFull}},
		{"console_compact_wide.golden", ConsoleOptions{Thresholds: rs, Mode: ModeCompact, Width: 120}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteConsole(&buf, snap, tc.opts); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, tc.name, buf.Bytes())
		})
	}
}

func TestJSONGolden(t *testing.T) {
	snap := outputtest.Snapshot(t)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, snap, JSONOptions{Thresholds: evaluated(t, snap)}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "summary.golden.json", buf.Bytes())
}

// TestConsoleFitsWidth: no line of the plain summary is wider than asked.
func TestConsoleFitsWidth(t *testing.T) {
	snap := outputtest.Snapshot(t)
	rs := evaluated(t, snap)
	for _, w := range []int{60, 80, 100} {
		var buf bytes.Buffer
		if err := WriteConsole(&buf, snap, ConsoleOptions{Width: w, Thresholds: rs}); err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(buf.String(), "\n") {
			if width(l) > w {
				t.Errorf("width %d: line %d has %d columns: %q", w, i+1, width(l), l)
			}
		}
		if strings.Contains(buf.String(), "\x1b[") {
			t.Errorf("width %d: ANSI escapes without Color", w)
		}
	}
}

func TestConsoleContent(t *testing.T) {
	snap := outputtest.Snapshot(t)
	var buf bytes.Buffer
	if err := WriteConsole(&buf, snap, ConsoleOptions{Thresholds: evaluated(t, snap)}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"INTERRUPTED: results cover the first 42.5s",
		"█ THRESHOLDS",
		"✗ 'p(95)<200' p(95)=412.67ms",
		"✗ responseTime.........:", // the failed scoped threshold marks its metric
		"checks...............: 99.86% ✓ 2996 ✗ 4",
		"iterations...........: 3000   100/s",
		"40   62.50%  error: E_CONSENSUS_ERROR(-16). \"", // the seed's uniq -c, with shares
		"… 3 more messages (6 errors, 9.37%)",
		"note: batchSize 300 vertices per INSERT",
		"scenario                      QPS       p50       p95       p99      errors", // one column order, failing or not
		"insert.InsertPersonScenario*   96  268.03ms  412.67ms     1.12s  64 (5.33%)",
		"! DEGRADED insert.InsertPersonScenario: 5.33% of 1200 requests failed",
		"verdict: degraded (insert.InsertPersonScenario degraded: failed operations)",
		"top error (40×): error: E_CONSENSUS_ERROR(-16).",
		"percentiles include the failed requests",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
}

func TestJSONSemantics(t *testing.T) {
	snap := outputtest.Snapshot(t)
	rs := evaluated(t, snap)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, snap, JSONOptions{Thresholds: rs, IsStdOutTTY: true}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		RootGroup map[string]any            `json:"root_group"`
		Metrics   map[string]map[string]any `json:"metrics"`
		State     map[string]any            `json:"state"`
		Stampede  map[string]any            `json:"stampede"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.RootGroup["id"] != rootGroupID || doc.State["isStdOutTTY"] != true || doc.State["testRunDurationMs"] != 42500.0 {
		t.Errorf("root_group %v state %v", doc.RootGroup, doc.State)
	}
	// Every built-in metric is there, overall and per scenario.
	for _, name := range metrics.NewRegistry().Names() {
		for _, key := range []string{name, name + "{scenario:" + outputtest.Read + "}"} {
			if _, ok := doc.Metrics[key]; !ok {
				t.Errorf("metrics lack %s", key)
			}
		}
	}
	if _, ok := doc.Metrics[outputtest.Retries]; !ok {
		t.Error("metrics lack the custom counter")
	}
	// Trends in ms, equal to what thresholds saw; thresholds true = failed.
	for _, r := range rs {
		m := doc.Metrics[r.Metric]
		failed, ok := m["thresholds"].(map[string]any)[r.Expr]
		if !ok || failed != !r.Pass {
			t.Errorf("%s %s: thresholds entry %v, want %v (true = failed)", r.Metric, r.Expr, failed, !r.Pass)
		}
		if r.Agg.Name == "p" && r.Agg.P == 95 && r.Err == nil && m["p(95)"] != r.Value {
			t.Errorf("%s p(95) = %v in JSON, %v in the threshold", r.Metric, m["p(95)"], r.Value)
		}
	}
	rt := doc.Metrics["responseTime{scenario:"+outputtest.Read+"}"]
	if want := float64(snap.Scenario(outputtest.Read).Trends[metrics.ResponseTime].Hist.Max()) / 1000; rt["max"] != want {
		t.Errorf("responseTime max %v, want %v ms", rt["max"], want)
	}
	if rows := doc.Metrics["rows{scenario:"+outputtest.Write+"}"]; rows["med"] != 300.0 {
		t.Errorf("rows med %v, want the plain number 300", rows["med"])
	}
	if it := doc.Metrics["iterations"]; it["count"] != 4200.0 || it["rate"] != 4200/42.5 {
		t.Errorf("iterations %v, want count 4200 and rate per second of the run", it)
	}
	if c := doc.Metrics["checks"]; c["passes"] != 4132.0 || c["fails"] != 68.0 {
		t.Errorf("checks %v", c)
	}
	if g := doc.Metrics["vus_max"]; g["value"] != 400.0 || g["min"] != 50.0 || g["max"] != 400.0 {
		t.Errorf("vus_max %v", g)
	}
	if doc.Stampede["interrupted"] != true {
		t.Errorf("stampede.interrupted = %v", doc.Stampede["interrupted"])
	}
	if strings.Contains(buf.String(), `\u003c`) {
		t.Error("threshold names are HTML-escaped; k6 writes p(95)<200")
	}
}

func TestEmptySnapshot(t *testing.T) {
	snap := &metrics.Snapshot{Version: metrics.SnapshotVersion}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, snap, JSONOptions{}); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(buf.Bytes()) {
		t.Errorf("invalid JSON: %s", buf.Bytes())
	}
	buf.Reset()
	if err := WriteConsole(&buf, snap, ConsoleOptions{}); err != nil {
		t.Fatal(err)
	}
}

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestWriteErrors(t *testing.T) {
	snap := outputtest.Snapshot(t)
	if err := WriteJSON(errWriter{}, snap, JSONOptions{}); err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("WriteJSON = %v, want the write error", err)
	}
	if err := WriteConsole(errWriter{}, snap, ConsoleOptions{}); err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("WriteConsole = %v, want the write error", err)
	}
}

// TestTrendStats: --summary-trend-stats picks and orders the statistics of
// every trend, in the JSON and on the console, as k6 does.
func TestTrendStats(t *testing.T) {
	stats, err := ParseTrendStats("avg, p(99.9),count,med")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseTrendStats("avg,p95"); err == nil {
		t.Fatal("p95 accepted")
	}
	snap := outputtest.Snapshot(t)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, snap, JSONOptions{TrendStats: stats, Tags: map[string]string{"testid": "t1"}}); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	if !strings.Contains(s, `"responseTime": {
            "avg": `) || !strings.Contains(s, `"p(99.9)"`) || strings.Contains(s, `"p(90)"`) || !strings.Contains(s, `"testid": "t1"`) {
		t.Errorf("JSON:\n%s", s)
	}
	var doc struct {
		Metrics map[string]map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if rt := doc.Metrics["responseTime"]; rt["count"] != 4200 || rt["p(99.9)"] < rt["med"] {
		t.Errorf("responseTime %v", rt)
	}
	buf.Reset()
	if err := WriteConsole(&buf, snap, ConsoleOptions{TrendStats: stats}); err != nil {
		t.Fatal(err)
	}
	if c := buf.String(); !strings.Contains(c, "p(99.9)=") || !strings.Contains(c, "count=3000") || strings.Contains(c, "p(90)=") {
		t.Errorf("console:\n%s", c)
	}
}
