package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// withMonitor writes a monitor series over r's run: a host whose CPU
// climbs to saturation and whose eth0 carries traffic, and a process.
func withMonitor(t testing.TB, r *resultdir.Result) {
	t.Helper()
	f, err := os.Create(filepath.Join(r.Dir, monitor.File))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	i := 0
	for at := r.Snapshot.Start.Add(time.Second); !at.After(r.Snapshot.End.Add(time.Second)); at = at.Add(time.Second) {
		u := min(0.3+0.05*float64(i), 0.97)
		enc.Encode(monitor.Sample{Time: at, Source: "node", DT: 1, Values: map[string]float64{
			monitor.CPUCores: 8, monitor.CPUUtil: u, monitor.CPUBusyCores: 8 * u, monitor.MemTotal: 16 << 30, monitor.MemUsed: 5 << 30,
			monitor.NetRx: 4e7 + 1e6*float64(i), monitor.NetTx: 2e7, monitor.NetRx + ":eth0": 4e7 + 1e6*float64(i), monitor.NetTx + ":eth0": 2e7,
		}})
		enc.Encode(monitor.Sample{Time: at, Source: "pid:graphd", DT: 1, Values: map[string]float64{
			monitor.ProcCPU: 3 * u, monitor.ProcRSS: 1 << 30, monitor.ProcThreads: 64, monitor.CPUCores: 8, monitor.ProcUtil: 3 * u / 8,
		}})
		i++
	}
}

func TestPayloadTarget(t *testing.T) {
	results := twoRuns(t, filepath.Join(t.TempDir(), "results"))[1:]
	withMonitor(t, results[0])
	p, err := Build(results, Options{MaxPoints: 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range p.Runs[0].Scenarios {
		if len(sc.Target) != 2 || sc.Target[0].Source != "node" || len(sc.Target[0].CPU) == 0 || len(sc.Target[0].Rx) != len(sc.Target[0].T) ||
			len(sc.Target[1].ProcCores) == 0 || sc.Target[0].Stats.CPUMax <= 0 {
			t.Errorf("%s: target %+v", sc.Name, sc.Target)
		}
	}
	last := p.Runs[0].Scenarios[len(p.Runs[0].Scenarios)-1].Target[0]
	if !strings.Contains(last.Warning, "target node saturated") {
		t.Errorf("the busy second scenario has no saturation warning: %+v", last)
	}
}

// TestBrowserTarget renders a monitored run: the target's CPU and network
// charts sit in each scenario's grid next to throughput.
func TestBrowserTarget(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	results := twoRuns(t, filepath.Join(dir, "results"))[1:]
	withMonitor(t, results[0])
	page := filepath.Join(dir, "report.html")
	if err := WriteFile(page, results, Options{MaxPoints: 20}); err != nil {
		t.Fatal(err)
	}
	// The one-run page's 11 charts + target CPU and network per scenario.
	st := checkPage(t, bin, page, 15, "report-target.png")
	if n := len(st.rendered); n != 15 {
		t.Errorf("%d charts, want 15", n)
	}
}
