package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/golden"

	"github.com/stampede-bench/stampede/internal/resultdir"
)

// payloadJSON builds the payload with directories made relative, indented.
func payloadJSON(t *testing.T, results []*resultdir.Result, opts Options) []byte {
	t.Helper()
	p, err := Build(results, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Runs {
		r.Dir = filepath.Base(r.Dir)
	}
	b, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func TestGoldenPayload(t *testing.T) {
	results := twoRuns(t, t.TempDir())
	golden.Check(t, "payload.golden.json", payloadJSON(t, results, Options{MaxPoints: 10, Generator: "stampede test"}))
}

func TestGoldenSweepPayload(t *testing.T) {
	results := sweepRuns(t, t.TempDir())
	golden.Check(t, "sweep.golden.json", payloadJSON(t, results, Options{Generator: "stampede test"}))
}

func TestBuild(t *testing.T) {
	results := twoRuns(t, t.TempDir())
	p, err := Build(results, Options{MaxPoints: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Runs) != 2 || strings.Join(p.Scenarios, ",") != "go.Go2Step,insert.InsertPersonScenario" {
		t.Fatalf("runs %d scenarios %v", len(p.Runs), p.Scenarios)
	}
	if p.Runs[0].Label != "baseline" || p.Runs[1].Label != "candidate" {
		t.Errorf("labels %q %q", p.Runs[0].Label, p.Runs[1].Label)
	}
	rd := p.Runs[0].Scenarios[0]
	se := rd.Series
	if se == nil || se.Step != 4 || len(se.Req) != 8 {
		t.Fatalf("series step %d, %d points; want 4 and 8 (31 s in ≤ 10 points)", se.Step, len(se.Req))
	}
	// The stall (seconds 12–13) shows in the quietest second of bucket 3,
	// the mean keeps the total.
	if se.ReqL[3] != 0 || se.ReqH[3] != 120 || se.Req[3] != 60 {
		t.Errorf("bucket 3: min %v max %v mean %v; want 0, 120, 60", se.ReqL[3], se.ReqH[3], se.Req[3])
	}
	// Rates divide by the time each bucket covers: the scenario starts
	// 0.25 s into its first second and ends 0.25 s into its last.
	var total float64
	for i, v := range se.Req {
		w := float64(se.Step)
		if i == 0 {
			w -= 0.25
		}
		if i == len(se.Req)-1 {
			w = float64(31-se.Step*(len(se.Req)-1)) - 0.75
		}
		total += v * w
	}
	if int64(total+0.5) != rd.Summary.Requests {
		t.Errorf("series total %v != requests %d", total, rd.Summary.Requests)
	}
	// The bucket after the stall has the stalled requests' latency.
	if se.Max[3] < 2000 || se.P99[3] < 2000 {
		t.Errorf("stall not visible in bucket 3 latency: p99 %v max %v", se.P99[3], se.Max[3])
	}
	wr := p.Runs[0].Scenarios[1]
	if wr.Summary.Errors == 0 || len(wr.Errors) != 3 || len(wr.Series.ErrMsgs) != 3 || wr.Summary.Checks >= 1 || wr.Summary.Checks <= 0.9 {
		t.Errorf("write scenario: %+v errors %v msgs %d", wr.Summary, wr.Errors, len(wr.Series.ErrMsgs))
	}
	d := rd.Distribution
	if d == nil || len(d.P) < 10 || d.P[0] != 0 || d.V[len(d.V)-1] != rd.Summary.Max {
		t.Fatalf("distribution %+v", d)
	}
	for i := 1; i < len(d.P); i++ {
		if d.P[i] <= d.P[i-1] || d.V[i] < d.V[i-1] {
			t.Fatalf("distribution not increasing at %d: %v %v", i, d.P[i-1:i+1], d.V[i-1:i+1])
		}
	}
	// The candidate's generator was saturated: warned once per run and in
	// the scenarios it covered.
	if p.Runs[0].Generator == nil || p.Runs[0].Generator.Saturated || len(p.Runs[0].Warnings) != 0 {
		t.Errorf("baseline generator %+v warnings %v", p.Runs[0].Generator, p.Runs[0].Warnings)
	}
	if g := p.Runs[1].Generator; g == nil || !g.Saturated || len(p.Runs[1].Warnings) != 1 || len(p.Runs[1].Scenarios[0].Warnings) != 1 {
		t.Errorf("candidate generator %+v warnings %v", g, p.Runs[1].Warnings)
	}
	if p.Sweep != nil {
		t.Error("a sweep out of two plain runs")
	}
}

func TestSweep(t *testing.T) {
	p, err := Build(sweepRuns(t, t.TempDir()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sw := p.Sweep
	if sw == nil || sw.Dimension != "nodes" || len(sw.Scenarios) != 1 {
		t.Fatalf("sweep %+v", sw)
	}
	pts := sw.Scenarios[0].Points
	if len(pts) != 3 || pts[0].Nodes != 1 || pts[1].Nodes != 3 || pts[2].Nodes != 5 {
		t.Fatalf("points not in node order: %+v", pts)
	}
	if pts[0].Efficiency != 1 || pts[1].Efficiency >= 1 || pts[2].Efficiency >= pts[1].Efficiency {
		t.Errorf("efficiency %v %v %v", pts[0].Efficiency, pts[1].Efficiency, pts[2].Efficiency)
	}
	for _, pt := range pts {
		if pt.PerNode*pt.Nodes < pt.Throughput*0.99 || pt.PerNode*pt.Nodes > pt.Throughput*1.01 {
			t.Errorf("per node %v × %v != %v", pt.PerNode, pt.Nodes, pt.Throughput)
		}
	}
	if p.Runs[0].Label != "nodes=1" || p.Runs[2].Label != "nodes=5" || !strings.Contains(p.Title, "sweep over nodes") {
		t.Errorf("label %q title %q", p.Runs[0].Label, p.Title)
	}
}

func TestRunLabels(t *testing.T) {
	mk := func(dir string, sweep map[string]string) *resultdir.Result {
		return &resultdir.Result{Dir: dir, Options: resultdir.Options{Sweep: sweep}}
	}
	tests := []struct {
		name  string
		in    []*resultdir.Result
		given []string
		want  string
	}{
		{"dir names", []*resultdir.Result{mk("/r/a", nil), mk("/r/b/", nil)}, nil, "a|b"},
		{"same names get parents", []*resultdir.Result{mk("/x/run-01", nil), mk("/y/run-01", nil)}, nil, "x/run-01|y/run-01"},
		{"identical get numbers", []*resultdir.Result{mk("/x/r", nil), mk("/x/r", nil)}, nil, "x/r|x/r #2"},
		{"sweep steps", []*resultdir.Result{mk("/s/step-01", map[string]string{"dimension": "rate", "value": "1000"})}, nil, "rate=1000"},
		{"given labels win", []*resultdir.Result{mk("/r/a", nil), mk("/r/b", nil)}, []string{"old", ""}, "old|b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(runLabels(tc.in, tc.given), "|"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRenderSelfContained(t *testing.T) {
	results := twoRuns(t, t.TempDir())
	var buf bytes.Buffer
	if err := Write(&buf, results, Options{}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	// Nothing is fetched: no external scripts, styles, images or fonts.
	for _, re := range []string{`<script[^>]+src=`, `<link[^>]+href=`, `<img[^>]+src=`, `url\(`, `@import`, `https?://[^\s"'<>)]+`} {
		for _, m := range regexp.MustCompile(re).FindAllString(html, -1) {
			if m != "http://www.w3.org/2000/svg" {
				t.Errorf("page refers to an external resource: %q", m)
			}
		}
	}
	// The payload is intact and safe inside its script element.
	start := strings.Index(html, `<script type="application/json" id="stampede-data">`)
	end := strings.Index(html[start:], "</script>")
	if start < 0 || end < 0 {
		t.Fatal("no data element")
	}
	raw := html[start+len(`<script type="application/json" id="stampede-data">`) : start+end]
	var p Payload
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatalf("payload does not parse: %v", err)
	}
	if strings.Contains(raw, "<tag>") || !strings.Contains(raw, `\u003ctag\u003e`) {
		t.Error("error message with markup not escaped in the payload")
	}
	if len(p.Runs) != 2 {
		t.Errorf("%d runs in the page payload", len(p.Runs))
	}
}

func TestBuildErrors(t *testing.T) {
	if _, err := Build(nil, Options{}); err == nil {
		t.Error("no results accepted")
	}
	dir := t.TempDir()
	res := twoRuns(t, dir)[0]
	if err := os.WriteFile(filepath.Join(res.Dir, resultdir.SeriesFile), []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Build([]*resultdir.Result{res}, Options{}); err == nil || !strings.Contains(err.Error(), "series.jsonl") {
		t.Errorf("broken series: %v", err)
	}
	// Without series (a merged or copied snapshot) the report still builds.
	os.Remove(filepath.Join(res.Dir, resultdir.SeriesFile))
	p, err := Build([]*resultdir.Result{res}, Options{})
	if err != nil || p.Runs[0].Scenarios[0].Series != nil || p.Runs[0].Scenarios[0].Distribution == nil {
		t.Errorf("without series: %v", err)
	}
}

// TestPartialSecondsAreNotARamp: the first and last seconds of a scenario
// are partly covered; their rates divide by the time they cover, so a
// steady load draws flat instead of starting and ending near 0.
func TestPartialSecondsAreNotARamp(t *testing.T) {
	p, err := Build(twoRuns(t, t.TempDir()), Options{MaxPoints: 1000})
	if err != nil {
		t.Fatal(err)
	}
	se := p.Runs[0].Scenarios[0].Series
	if se.Step != 1 {
		t.Fatalf("step %d", se.Step)
	}
	first, mid, last := se.Req[0], se.Req[5], se.Req[len(se.Req)-1]
	t.Logf("first %v, middle %v, last %v req/s", first, mid, last)
	for _, v := range []float64{first, last} {
		if v < mid*0.7 || v > mid*1.5 {
			t.Errorf("partial second drawn at %v req/s against %v in the middle: %v", v, mid, se.Req)
		}
	}
}
