package sweep

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/golden"
	"github.com/stampede-bench/stampede/metric"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// curve builds a VU sweep from loads, throughputs and p99s (ms); each
// point's VUs are fully explained by Little's law.
func curve(loads, tput, p99 []float64) []Point {
	var out []Point
	for i := range loads {
		iter := loads[i] / tput[i] * 1e3 // ms, so that L = VUs
		out = append(out, Point{Step: i + 1, Dimension: DimVUs, Value: fmt.Sprint(loads[i]), Load: loads[i], Scenario: "s",
			Throughput: tput[i], P50: p99[i] / 3, P99: p99[i], IterMean: iter, Concurrency: tput[i] * iter / 1e3,
			VUs: loads[i], Closed: true, GeneratorCPU: -1, GeneratorMax: -1})
	}
	return out
}

func TestFindKnee(t *testing.T) {
	tests := []struct {
		name           string
		loads, tput, p []float64
		wantFound      bool
		wantBefore, At int
	}{
		{name: "linear growth, no knee",
			loads: []float64{50, 100, 200, 300, 500}, tput: []float64{1000, 2000, 4000, 6000, 10000}, p: []float64{10, 10, 11, 11, 12}},
		{name: "classic saturation", wantFound: true, wantBefore: 2, At: 3,
			loads: []float64{50, 100, 200, 300, 500}, tput: []float64{1000, 1900, 2700, 2800, 2850}, p: []float64{10, 11, 14, 40, 90}},
		{name: "throughput falls after the peak", wantFound: true, wantBefore: 1, At: 2,
			loads: []float64{50, 100, 200}, tput: []float64{1000, 2000, 1500}, p: []float64{5, 6, 30}},
		{name: "flat throughput, flat latency: not a knee (e.g. a rate cap)",
			loads: []float64{50, 100, 200}, tput: []float64{1000, 1020, 1030}, p: []float64{10, 11, 12}},
		{name: "latency climbs but throughput still grows",
			loads: []float64{50, 100}, tput: []float64{1000, 1500}, p: []float64{10, 30}},
		{name: "exactly at the thresholds is not a knee",
			loads: []float64{50, 100}, tput: []float64{1000, 1100}, p: []float64{10, 15}},
		{name: "p99 from zero is floored", wantFound: true, wantBefore: 0, At: 1,
			loads: []float64{1, 2}, tput: []float64{1000, 1000}, p: []float64{0, 5}},
		{name: "zero latency throughout", loads: []float64{1, 2}, tput: []float64{1000, 1000}, p: []float64{0, 0}},
		{name: "single step", loads: []float64{50}, tput: []float64{1000}, p: []float64{10}},
		{name: "empty"},
		{name: "first knee wins", wantFound: true, wantBefore: 0, At: 1,
			loads: []float64{1, 2, 3, 4}, tput: []float64{100, 105, 200, 205}, p: []float64{1, 2, 2, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := curve(tt.loads, tt.tput, tt.p)
			k := FindKnee(c, Rule{})
			if k.Found != tt.wantFound || (k.Found && (k.Before != tt.wantBefore || k.At != tt.At)) {
				t.Fatalf("FindKnee = %+v, want found=%v at %d→%d", k, tt.wantFound, tt.wantBefore, tt.At)
			}
			if k.Found && k.BestLoad != c[k.Before].Value {
				t.Errorf("best load %q", k.BestLoad)
			}
			if d := k.Describe(c); d == "" {
				t.Error("empty description")
			}
		})
	}
}

func TestKneeDescribe(t *testing.T) {
	tests := []struct {
		name           string
		loads, tput, p []float64
		want           string
	}{
		{"knee", []float64{50, 100}, []float64{1000, 1010}, []float64{10, 40}, "knee between 50 and 100 VUs: throughput +1%"},
		{"still growing", []float64{50, 100}, []float64{1000, 2000}, []float64{10, 11}, "still grows at the highest load (100 VUs"},
		{"peaked without queueing", []float64{1, 2, 4}, []float64{9e6, 6e6, 5e6}, []float64{0, 0, 0}, "peaked at 1 VUs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := curve(tt.loads, tt.tput, tt.p)
			if got := FindKnee(c, Rule{}).Describe(c); !strings.Contains(got, tt.want) {
				t.Errorf("Describe = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDiagnose(t *testing.T) {
	saturated := func() []Point {
		return curve([]float64{50, 100, 200}, []float64{1000, 1900, 1950}, []float64{10, 12, 40})
	}
	tests := []struct {
		name   string
		modify func(c []Point)
		want   string
		reason string
	}{
		{name: "knee with Little's law holding: target", want: SideTarget, reason: "queued at the target"},
		{name: "generator busy before the knee: client", want: SideClient, reason: "generator's CPU",
			modify: func(c []Point) { c[1].GeneratorSaturated, c[1].GeneratorCPU, c[1].GeneratorMax = true, 0.93, 0.99 }},
		{name: "embedded target in the busy process: unknown", want: SideUnknown, reason: "inside stampede's process",
			modify: func(c []Point) {
				c[1].GeneratorSaturated, c[1].GeneratorCPU, c[1].InProcess = true, 0.95, true
			}},
		{name: "machine busy with other processes: unknown, as its note says", want: SideUnknown, reason: "machine was busy with other processes",
			modify: func(c []Point) { c[0].HostSaturated = true }},
		{name: "generator busy only after the knee does not count", want: SideTarget,
			modify: func(c []Point) { c = append(c, c[2]); c[3].GeneratorSaturated = true }},
		{name: "VUs idle outside iterations: client", want: SideClient, reason: "Little's law accounts for",
			modify: func(c []Point) { c[2].Concurrency = 0.5 * c[2].VUs }},
		{name: "open model, dropped while VUs busy: target", want: SideTarget,
			modify: func(c []Point) { c[2].Closed, c[2].Dropped = false, 100 }},
		{name: "open model, dropped while VUs idle: client", want: SideClient,
			modify: func(c []Point) { c[2].Closed, c[2].Dropped, c[2].Concurrency = false, 100, 10 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := saturated()
			if tt.modify != nil {
				tt.modify(c)
			}
			v := Diagnose(c, FindKnee(c, Rule{}))
			if v.Side != tt.want || !strings.Contains(v.Reason, tt.reason) {
				t.Fatalf("Diagnose = %+v, want side %s with %q", v, tt.want, tt.reason)
			}
		})
	}
	lin := curve([]float64{1, 2}, []float64{100, 200}, []float64{1, 1})
	if v := Diagnose(lin, FindKnee(lin, Rule{})); v.Side != SideNone {
		t.Errorf("no knee: %+v", v)
	}
	if v := Diagnose(nil, Knee{}); v.Side != SideUnknown {
		t.Errorf("empty: %+v", v)
	}
}

func nodeCurve(nodes []int, tput []float64) []Point {
	var out []Point
	for i, n := range nodes {
		out = append(out, Point{Step: i + 1, Dimension: DimNodes, Value: fmt.Sprint(n), Load: float64(n), Nodes: n, Scenario: "s",
			Throughput: tput[i], P50: 1, P99: 5, IterMean: 10, VUs: tput[i] * 10 / 1e3, Concurrency: tput[i] * 10 / 1e3, Closed: true, GeneratorCPU: -1})
	}
	return out
}

func TestScaling(t *testing.T) {
	tests := []struct {
		name       string
		nodes      []int
		tput       []float64
		wantLinear bool
		wantAt     int
		wantEff    []float64
	}{
		{name: "linear", nodes: []int{1, 3, 5}, tput: []float64{1000, 2950, 4900}, wantLinear: true, wantAt: -1, wantEff: []float64{1, 0.9833, 0.98}},
		{name: "sub-linear", nodes: []int{1, 3, 5}, tput: []float64{1000, 2400, 3000}, wantAt: 1, wantEff: []float64{1, 0.8, 0.6}},
		{name: "unsorted input is sorted by nodes", nodes: []int{5, 1, 3}, tput: []float64{4900, 1000, 2950}, wantLinear: true, wantAt: -1, wantEff: []float64{1, 0.9833, 0.98}},
		{name: "super-linear", nodes: []int{3, 6}, tput: []float64{3000, 7000}, wantLinear: true, wantAt: -1, wantEff: []float64{1, 1.1667}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Analyze(nodeCurve(tt.nodes, tt.tput), Rule{})
			s := a.Curves[0].Scaling
			if s == nil || s.Linear != tt.wantLinear || s.SubLinearAt != tt.wantAt {
				t.Fatalf("scaling = %+v", s)
			}
			for i, e := range tt.wantEff {
				if math.Abs(s.Efficiency[i]-e) > 1e-3 {
					t.Errorf("efficiency[%d] = %.4f, want %.4f", i, s.Efficiency[i], e)
				}
			}
			if a.Curves[0].Knee.Found {
				t.Error("node sweeps have no knee")
			}
		})
	}
}

// A node sweep against kfake (kafka serve behind --targets): no scaling
// verdict, whatever the curve; and no "target limits scaling" verdict
// while the machine was busy.
func TestScalingNotMeaningful(t *testing.T) {
	c := nodeCurve([]int{1, 3, 5}, []float64{1000, 1200, 1300})
	for i := range c {
		c[i].StandIn = true
	}
	a := Analyze(c, Rule{})
	cv := a.Curves[0]
	if cv.Verdict.Side != SideUnknown || !strings.Contains(cv.Verdict.Reason, "not meaningful") || cv.Scaling.NotMeaningful == "" {
		t.Errorf("stand-in node sweep: verdict %+v, scaling %+v", cv.Verdict, cv.Scaling)
	}
	if d := cv.Scaling.Describe(cv.Points); !strings.Contains(d, "not meaningful") {
		t.Errorf("describe = %s", d)
	}
	c = nodeCurve([]int{1, 3, 5}, []float64{1000, 1200, 1300})
	for i := range c {
		c[i].HostSaturated = true
	}
	if v := Analyze(c, Rule{}).Curves[0].Verdict; v.Side == SideTarget || strings.Contains(v.Reason, "generator kept up") {
		t.Errorf("busy machine: verdict %+v contradicts the self-check", v)
	}
}

// TestTableGolden renders a VU sweep with a knee, a node sweep and a
// client-bound curve.
func TestTableGolden(t *testing.T) {
	vus := curve([]float64{50, 100, 200, 300, 500}, []float64{1000, 1900, 2700, 2800, 2850}, []float64{10, 11, 14, 40, 90})
	for i := range vus {
		vus[i].Scenario, vus[i].GeneratorCPU = "go.Go1Step", 0.2+0.1*float64(i)
		vus[i].ErrorRate = 0.001 * float64(i)
	}
	noop := curve([]float64{1, 2, 4}, []float64{2e6, 3.5e6, 3.6e6}, []float64{0.001, 0.002, 0.003})
	for i := range noop {
		noop[i].Scenario, noop[i].Concurrency = "builtin.Noop", noop[i].VUs*0.6
	}
	var b bytes.Buffer
	if err := WriteTable(&b, Analyze(append(vus, noop...), Rule{})); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n")
	if err := WriteTable(&b, Analyze(nodeCurve([]int{1, 3, 5}, []float64{1000, 2400, 3000}), Rule{})); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "table.golden.txt", b.Bytes())
}

// TestFromResult reads a step directory written like a run's.
func TestFromResult(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	rt := metric.NewHistogram()
	it := metric.NewHistogram()
	for i := 0; i < 1000; i++ {
		rt.RecordValue(int64(1000 + i)) // 1–2 ms
		it.RecordValue(int64(2000 + i))
	}
	sc := &metrics.ScenarioSnapshot{Name: "go.Go1Step", Executor: engine.ConstantVUs, Start: start, End: start.Add(12 * time.Second),
		Trends: map[string]*metrics.Trend{
			metrics.ResponseTime:      {Unit: metrics.UnitMicros, Hist: rt},
			metrics.IterationDuration: {Unit: metrics.UnitMicros, Hist: it},
		},
		Counters: map[string]int64{metrics.Iterations: 1000, metrics.Requests: 2000, metrics.Errors: 20}}
	snap := &metrics.Snapshot{Version: metrics.SnapshotVersion, Start: start, End: sc.End, Scenarios: []*metrics.ScenarioSnapshot{sc}}
	cfg := engine.Config{Executor: engine.ConstantVUs, VUs: 3, Duration: 10 * time.Second, Warmup: 2 * time.Second}.Defaults()
	opts := resultdir.Options{Scenarios: []resultdir.ScenarioOptions{{Name: sc.Name, Config: cfg}},
		Sweep: map[string]string{KeyDimension: DimVUs, KeyValue: "3", KeyStep: "2"}}
	for name, v := range map[string]any{resultdir.SnapshotFile: snap, resultdir.OptionsFile: opts} {
		if err := resultdir.WriteJSON(dir, name, v); err != nil {
			t.Fatal(err)
		}
	}
	r, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	check := &selfcheck.Report{Cores: 2, Samples: []selfcheck.Sample{
		{Time: start.Add(time.Second), CPU: 0.9}, {Time: start.Add(2 * time.Second), CPU: 0.95}, {Time: start.Add(time.Hour), CPU: 0.1}}}
	ps := FromResult(r, check)
	if len(ps) != 1 {
		t.Fatalf("%d points", len(ps))
	}
	p := ps[0]
	approx := func(name string, got, want float64) {
		if math.Abs(got-want) > 0.01*math.Abs(want)+1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	approx("throughput", p.Throughput, 100) // 1000 it over 12 s − 2 s warm-up
	approx("p50", p.P50, 1.5)
	approx("iterMean", p.IterMean, 2.5)
	approx("concurrency", p.Concurrency, 0.25)
	approx("errorRate", p.ErrorRate, 0.01)
	approx("generatorCPU", p.GeneratorCPU, 0.925)
	if p.Step != 2 || p.Load != 3 || p.VUs != 3 || !p.Closed || !p.GeneratorSaturated {
		t.Errorf("point = %+v", p)
	}
	if v := Diagnose(ps, Knee{}); v.Side != SideClient {
		t.Errorf("verdict %+v", v)
	}
}
