package sweep

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// vusCurve is a closed-model curve whose throughput stops growing at the
// third step (the knee) while p99 climbs, with Little's law holding.
func vusCurve(targets ...*Target) []Point {
	vus := []float64{50, 100, 200, 400}
	thr := []float64{1000, 1900, 2000, 2020}
	p99 := []float64{10, 12, 40, 120}
	var out []Point
	for i := range vus {
		p := Point{Step: i + 1, Dimension: DimVUs, Value: trimFloat(vus[i]), Load: vus[i], Scenario: "s", Executor: "constant-vus",
			Throughput: thr[i], P99: p99[i], P50: p99[i] / 2, IterMean: 1000 * vus[i] / thr[i], VUs: vus[i], Closed: true,
			GeneratorCPU: 0.3, GeneratorMax: 0.4}
		p.Concurrency = p.Throughput * p.IterMean / 1e3
		if i < len(targets) {
			p.Target = targets[i]
		}
		out = append(out, p)
	}
	return out
}

func TestDiagnoseMeasured(t *testing.T) {
	idle := &Target{Source: "node", CPU: 0.3, CPUMax: 0.4, Cores: 8}
	busy := &Target{Source: "node", CPU: 0.92, CPUMax: 0.99, Cores: 8, Saturated: true}
	nic := &Target{Source: "node", CPU: 0.4, CPUMax: 0.5, Cores: 8, NICBound: "node: eth0 at 118.0 MB/s of its 1 Gbit/s link", NetPeak: 1.18e8}
	tests := []struct {
		name  string
		curve []Point
		side  string
		want  []string
	}{
		{"server CPU saturated", vusCurve(idle, idle, busy, busy), SideTarget, []string{"server's CPU was above 85%", "max 99% of 8 cores", "(measured)"}},
		{"NIC-bound", vusCurve(idle, nic, nic, nic), SideTarget, []string{"network is the limit at 100 VUs", "eth0 at 118.0 MB/s of its 1 Gbit/s link"}},
		{"target limits but not by CPU", vusCurve(idle, idle, idle, idle), SideTarget, []string{"not by CPU or network", "CPU mean 30%, max 40%"}},
		{"client busy, target idle", func() []Point {
			c := vusCurve(idle, idle, idle, idle)
			c[1].GeneratorSaturated, c[1].GeneratorCPU, c[1].GeneratorMax = true, 0.9, 0.97
			return c
		}(), SideClient, []string{"client saturated first", "target had headroom (server node CPU mean 30%"}},
		{"saturated host is the generator's machine", func() []Point {
			local := *busy
			local.Local, local.Host = true, true
			return vusCurve(idle, &local, &local, &local)
		}(), SideUnknown, []string{"generator's own machine", "pid=NAME"}},
		{"local target and busy generator", func() []Point {
			local := *busy
			local.Local = true
			c := vusCurve(idle, &local, &local, &local)
			c[1].GeneratorSaturated = true
			return c
		}(), SideUnknown, []string{"runs on the generator's machine"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := FindKnee(tc.curve, DefaultRule)
			v := Diagnose(tc.curve, k)
			if v.Side != tc.side {
				t.Errorf("side %s, want %s: %s", v.Side, tc.side, v.Reason)
			}
			for _, w := range tc.want {
				if !strings.Contains(v.Reason, w) {
					t.Errorf("reason lacks %q: %s", w, v.Reason)
				}
			}
		})
	}
	// Without monitoring, Little's law still decides.
	if v := Diagnose(vusCurve(), FindKnee(vusCurve(), DefaultRule)); v.Side != SideTarget || strings.Contains(v.Reason, "measured") {
		t.Errorf("unmonitored: %+v", v)
	}
}

func TestAddTargetFromMonitorFile(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f, err := os.Create(filepath.Join(dir, monitor.File))
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for i := 1; i <= 10; i++ {
		enc.Encode(monitor.Sample{Time: start.Add(time.Duration(i) * time.Second), Source: "node", DT: 1, Values: map[string]float64{
			monitor.CPUCores: 4, monitor.CPUUtil: 0.95, monitor.CPUBusyCores: 3.8,
			monitor.NetRx + ":eth0": 1.2e8, monitor.NetTx + ":eth0": 1e6,
		}})
	}
	f.Close()
	r := &resultdir.Result{Dir: dir, Options: resultdir.Options{Monitor: []string{"node=http://10.0.0.5:9100/metrics"}, NICSpeed: 1.25e8},
		Snapshot: &metrics.Snapshot{Scenarios: []*metrics.ScenarioSnapshot{{Name: "s", Start: start, End: start.Add(10 * time.Second)}}}}
	pts := []Point{{Scenario: "s"}}
	if err := AddTarget(pts, r); err != nil {
		t.Fatal(err)
	}
	tg := pts[0].Target
	if tg == nil || !tg.Saturated || tg.Local || tg.Cores != 4 || !strings.Contains(tg.NICBound, "eth0 at 120.0 MB/s of its 1 Gbit/s link") {
		t.Errorf("target %+v", tg)
	}
}
