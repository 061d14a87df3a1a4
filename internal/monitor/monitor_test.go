package monitor

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/monitor/monitortest"
)

// waitFor polls cond every 50ms until it holds or d passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what) // see the counts in the caller
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestNodeExporterReal(t *testing.T) {
	exp := monitortest.StartNodeExporter(t)
	specs, err := ParseSpecs([]string{"node=" + exp.URL, "pid=" + strconv.Itoa(os.Getpid())})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	start := time.Now()
	m, err := Start(dir, specs, Options{Interval: 200 * time.Millisecond, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// Burn some CPU in this process so pid= has something to see.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		x := 0
		for ctx.Err() == nil {
			for i := 0; i < 1e5; i++ {
				x += i
			}
		}
		_ = x
	}()
	waitFor(t, 30*time.Second, "samples of both sources", func() bool {
		c := m.Counts()
		return c["node"].OK >= 4 && c["pid:"+strconv.Itoa(os.Getpid())].OK >= 4
	})
	cancel()
	if err := m.Stop(); err != nil {
		t.Fatal(err)
	}
	lat := m.Latest()
	if len(lat) != 2 {
		t.Fatalf("latest: %+v", lat)
	}
	stats, err := Summarize(dir, []Window{{From: start, To: time.Now()}}, SummarizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(stats) != 1 || len(stats[0]) != 2 {
		t.Fatalf("stats: %+v", stats)
	}
	node, pid := stats[0][0], stats[0][1] // sorted by source ID
	if !node.Host || node.Cores < 1 || node.CPUMax <= 0 || node.CPUMax > 1 || node.MemTotal <= 0 || node.MemUsedMax <= 0 {
		t.Errorf("node stats: %+v", node)
	}
	if node.NetPeakDev == "" {
		t.Errorf("no network seen: %+v", node)
	}
	if node.Failed != 0 {
		t.Errorf("failures on a live exporter: %+v", node)
	}
	if !pid.Proc || pid.ProcCPUMax <= 0.05 || pid.ProcRSSMax < 1<<20 || pid.ProcThreads < 2 || pid.CPUSeconds <= 0 {
		t.Errorf("pid stats (this busy test process): %+v", pid)
	}
	if secs, ok := TargetCPU(stats[0]); !ok || secs != pid.CPUSeconds {
		t.Errorf("TargetCPU = %v, %v; want the process's %v", secs, ok, pid.CPUSeconds)
	}
	if l := node.Line(); !strings.Contains(l, "CPU avg") || !strings.Contains(l, "net peak") {
		t.Errorf("line: %s", l)
	}
}

// TestExporterKilledMidRun: the exporter dies while the monitor samples
// it; failures are counted and written, sampling goes on, Stop is clean.
func TestExporterKilledMidRun(t *testing.T) {
	exp := monitortest.StartNodeExporter(t)
	specs, err := ParseSpecs([]string{"node=" + exp.URL})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m, err := Start(dir, specs, Options{Interval: 100 * time.Millisecond, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "readings", func() bool { return m.Counts()["node"].OK >= 3 })
	exp.Stop()
	waitFor(t, 30*time.Second, "failed readings", func() bool { return m.Counts()["node"].Failed >= 3 })
	if err := m.Stop(); err != nil {
		t.Fatal(err)
	}
	c := m.Counts()["node"]
	if !strings.Contains(c.LastErr, "refused") {
		t.Errorf("last error %q, want connection refused", c.LastErr)
	}
	stats, err := Summarize(dir, []Window{{}}, SummarizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st := stats[0][0]
	if st.Failed < 3 || st.Samples < 2 {
		t.Errorf("stats %+v", st)
	}
	if n := st.FailureNote(); !strings.Contains(n, "readings failed") || strings.Contains(n, "http://") {
		t.Errorf("note %q", n)
	}
}

func TestPIDByName(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	specs, err := ParseSpecs([]string{"pid=sleep"})
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(specs); err != nil {
		t.Fatal(err)
	}
	if err := Check([]Spec{{ID: "pid:x", Kind: KindPID, ProcName: "no-such-process-zz"}}); err == nil || !strings.Contains(err.Error(), "no process named") {
		t.Errorf("missing name: %v", err)
	}
	if err := Check([]Spec{{ID: "pid:x", Kind: KindPID, PID: 1 << 30}}); err == nil {
		t.Error("missing pid accepted")
	}
	dir := t.TempDir()
	m, err := Start(dir, specs, Options{Interval: 100 * time.Millisecond, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "readings", func() bool { return m.Counts()["pid:sleep"].OK >= 3 })
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if err := m.Stop(); err != nil {
		t.Fatal(err)
	}
	lat := m.Latest()
	if len(lat) != 1 || lat[0].Values[ProcRSS] <= 0 || lat[0].Values[ProcThreads] < 1 {
		t.Errorf("latest %+v", lat)
	}
}

// TestProcessExporterReal reads a real process-exporter watching a sleep
// process: its group's RSS and threads arrive, and no host figures.
func TestProcessExporterReal(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	exp := monitortest.StartProcessExporter(t, "sleep")
	specs, err := ParseSpecs([]string{"process=" + exp.URL})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Start(t.TempDir(), specs, Options{Interval: 200 * time.Millisecond, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "readings", func() bool { return m.Counts()["process"].OK >= 3 })
	if err := m.Stop(); err != nil {
		t.Fatal(err)
	}
	lat := m.Latest()
	if len(lat) != 1 {
		t.Fatalf("latest %+v", lat)
	}
	v := lat[0].Values
	if v[ProcRSS+":sleep"] <= 0 || v[ProcThreads+":sleep"] < 1 || v[ProcRSS] < v[ProcRSS+":sleep"] {
		t.Errorf("process-exporter figures: %v", v)
	}
	if _, ok := v[ProcCPU+":sleep"]; !ok {
		t.Errorf("no CPU of the group: %v", v)
	}
	if _, ok := v[CPUUtil]; ok {
		t.Errorf("host CPU from a process-exporter page: %v", v)
	}
}
