package compare

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/monitor"
)

// writeMonitor writes a monitor series for the run in dir: pid source
// using cores CPU cores every second of the run.
func writeMonitor(t *testing.T, dir string, r Run, cores float64) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, monitor.File))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for at := r.Snapshot.Start.Add(time.Second); !at.After(r.Snapshot.End); at = at.Add(time.Second) {
		enc.Encode(monitor.Sample{Time: at, Source: "pid:httptarget", DT: 1, Values: map[string]float64{
			monitor.ProcCPU: cores, monitor.ProcRSS: 1 << 26, monitor.ProcThreads: 8, monitor.CPUCores: 2, monitor.ProcUtil: cores / 2,
		}})
	}
}

// TestCompareTargetCPU: the candidate build costs the target 25% more CPU
// per request with the same throughput; compare finds it, by default, as
// the PGO worked example measured it by hand.
func TestCompareTargetCPU(t *testing.T) {
	root := t.TempDir()
	b, c := seedLike(t)
	for _, s := range []struct {
		side  Side
		name  string
		cores func(i int) float64
	}{
		{b, "default", func(i int) float64 { return 1.0 + 0.01*float64(i) }},
		{c, "pgo", func(i int) float64 { return 1.25 + 0.01*float64(i) }},
	} {
		for i, r := range s.side.Runs {
			dir := filepath.Join(root, s.name, fmt.Sprintf("run-%02d", i+1))
			writeRun(t, dir, r)
			writeMonitor(t, dir, r, s.cores(i))
		}
	}
	base, err := Load(filepath.Join(root, "default"), "default")
	if err != nil {
		t.Fatal(err)
	}
	cand, err := Load(filepath.Join(root, "pgo"), "pgo")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Compare(base, cand, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got *MetricResult
	for i, m := range rep.Scenarios[0].Metrics {
		if m.Metric.Name == TargetCPU {
			got = &rep.Scenarios[0].Metrics[i]
		}
	}
	if got == nil {
		t.Fatalf("target_cpu not compared by default: %+v", rep.Scenarios[0].Metrics)
	}
	if got.Unit != "µs/op" || got.Direction != LowerIsBetter || !got.Worse() {
		t.Errorf("unit %s direction %v verdict %+v", got.Unit, got.Direction, got.Verdict)
	}
	// 25% more CPU per second; the candidate's runs also served other
	// request counts, so per op the change is what the counts make it.
	want := func(s Side, cores func(int) float64) (sum float64) {
		for i, r := range s.Runs {
			sc := r.Snapshot.Scenarios[0]
			sum += cores(i) * (sc.End.Sub(sc.Start) - r.Warmup[sc.Name]).Seconds() * 1e6 / float64(sc.Counters["requests"])
		}
		return sum / float64(len(s.Runs))
	}
	wantDelta := want(c, func(i int) float64 { return 1.25 + 0.01*float64(i) })/want(b, func(i int) float64 { return 1.0 + 0.01*float64(i) }) - 1
	if d := got.Verdict.Delta; d < wantDelta-0.01 || d > wantDelta+0.01 || got.Verdict.P > 0.01 {
		t.Errorf("delta %.3f p %.3f, want %.3f with p = 0.008", d, got.Verdict.P, wantDelta)
	}
	var sb strings.Builder
	if err := rep.WriteText(&sb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "target CPU/op (µs/op)") || !strings.Contains(sb.String(), "p=0.008") {
		t.Errorf("text lacks target CPU/op with its p-value:\n%s", sb.String())
	}
	// Asked for explicitly, on runs without monitoring: a clear error.
	m, err := ParseMetric("target_cpu")
	if err != nil || m.String() != "target_cpu" {
		t.Fatalf("%v %v", m, err)
	}
	bare, bareC := seedLike(t)
	if _, err := Compare(bare, bareC, Options{Metrics: []Metric{m}}); err == nil {
		t.Error("target_cpu compared on runs without --monitor")
	}
}
