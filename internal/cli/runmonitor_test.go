package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	lp "github.com/influxdata/line-protocol/v2/lineprotocol"

	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/monitor/monitortest"
	"github.com/stampede-bench/stampede/internal/resultdir"
	runsweep "github.com/stampede-bench/stampede/internal/run/sweep"
)

// measurementSink is an InfluxDB stand-in that records measurement names.
type measurementSink struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (s *measurementSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	dec := lp.NewDecoderWithBytes(body)
	s.mu.Lock()
	defer s.mu.Unlock()
	for dec.Next() {
		m, err := dec.Measurement()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.seen[string(m)] = true
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *measurementSink) has(m string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[m]
}

// TestRunMonitor: a run with a real node_exporter and this process as
// pid= shows the target in the console, summary.json, options.json,
// monitor.jsonl, the Prometheus endpoint and InfluxDB.
func TestRunMonitor(t *testing.T) {
	exp := monitortest.StartNodeExporter(t)
	sink := &measurementSink{seen: map[string]bool{}}
	srv := httptest.NewServer(sink)
	defer srv.Close()
	port := freePort(t)
	dir := filepath.Join(t.TempDir(), "res")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	scraped := make(chan string, 1)
	go func() {
		for ctx.Err() == nil {
			resp, err := http.Get("http://127.0.0.1:" + port + "/metrics")
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if strings.Contains(string(b), `stampede_target_cpu_util{source="node"}`) {
					scraped <- string(b)
					return
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	pid := strconv.Itoa(os.Getpid())
	code, stdout, stderr := runMain(t, ctx, "run", "builtin.Noop", "-u", "2", "-d", "3s", "--rate", "500", "--no-csv",
		"--monitor", "node="+exp.URL, "--monitor", "pid="+pid, "--nic-speed", "1G",
		"--prometheus", ":"+port, "--out", "influxdb="+srv.URL+"/k6", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "target node: CPU avg") || !strings.Contains(stdout, "target pid:"+pid+": process CPU avg") {
		t.Errorf("console lacks the target lines:\n%s", stdout)
	}
	select {
	case page := <-scraped:
		for _, want := range []string{`stampede_target_mem_used_bytes{source="node"}`, `stampede_target_proc_rss_bytes{source="pid:` + pid + `"}`} {
			if !strings.Contains(page, want) {
				t.Errorf("scrape lacks %s", want)
			}
		}
	case <-time.After(5 * time.Second):
		t.Error("no target metrics on the Prometheus endpoint during the run")
	}
	if !sink.has("target_cpu_util") || !sink.has("target_proc_cpu_cores") {
		t.Errorf("InfluxDB got no target lines: %v", sink.seen)
	}
	var sum struct {
		Stampede struct {
			Target map[string][]monitor.Stats `json:"target"`
		} `json:"stampede"`
	}
	b, err := os.ReadFile(filepath.Join(dir, resultdir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	sts := sum.Stampede.Target["builtin.Noop"]
	if len(sts) != 2 || sts[0].Source != "node" || !sts[0].Host || sts[0].CPUMax <= 0 || sts[0].Samples < 1 ||
		!sts[1].Proc || sts[1].ProcRSSMax <= 0 {
		t.Errorf("summary.json target: %+v", sts)
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Options.Monitor) != 2 || res.Options.Monitor[0] != "node="+exp.URL || res.Options.NICSpeed != 1.25e8 {
		t.Errorf("options.json monitor: %v %v", res.Options.Monitor, res.Options.NICSpeed)
	}
	if _, err := os.Stat(filepath.Join(dir, monitor.File)); err != nil {
		t.Error(err)
	}
}

// TestRunMonitorExporterDies: the exporter is killed mid-run; the run
// completes, exit 0, and the failed readings are counted in a note.
func TestRunMonitorExporterDies(t *testing.T) {
	exp := monitortest.StartNodeExporter(t)
	dir := filepath.Join(t.TempDir(), "res")
	go func() {
		time.Sleep(1500 * time.Millisecond)
		exp.Stop()
	}()
	code, stdout, stderr := runMain(t, t.Context(), "run", "builtin.Noop", "-u", "1", "-d", "4s", "--rate", "100", "--no-csv",
		"--monitor", "node="+exp.URL, "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "monitor node: ") || !strings.Contains(stdout, "readings failed") {
		t.Errorf("no note of the failed readings:\n%s", stdout)
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range res.Snapshot.Scenario("builtin.Noop").Notes {
		found = found || strings.Contains(n, "readings failed")
	}
	if !found {
		t.Error("snapshot notes lack the failed readings")
	}
}

func TestRunMonitorBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no url", []string{"--monitor", "node=10.0.0.5:9100"}, "http:// or https://"},
		{"no such pid", []string{"--monitor", "pid=999999999"}, "no such process"},
		{"no such name", []string{"--monitor", "pid=no-such-proc-zz"}, "no process named"},
		{"bad nic speed", []string{"--monitor", "pid=" + strconv.Itoa(os.Getpid()), "--nic-speed", "fast"}, "--nic-speed"},
		{"credential hidden", []string{"--monitor", "node=ftp://u:hunter2@h/"}, "ftp://h/"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "res")
			args := append([]string{"run", "builtin.Noop", "-d", "1s", "--out", dir}, tc.args...)
			code, _, stderr := runMain(t, t.Context(), args...)
			if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d, stderr %q; want 2 and one line with %q", code, stderr, tc.want)
			}
			if strings.Contains(stderr, "hunter2") {
				t.Error("credential printed")
			}
			if _, err := os.Stat(dir); err == nil {
				t.Error("result directory created for bad input")
			}
		})
	}
}

// TestCompareTargetCPUReal: two sides of runs against a real server
// process (node_exporter serving its page as the HTTP target), watched with
// pid=; compare shows the target's CPU per operation with its p-value.
func TestCompareTargetCPUReal(t *testing.T) {
	exp := monitortest.StartNodeExporter(t)
	root := t.TempDir()
	for _, side := range []string{"a", "b"} {
		code, _, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", exp.URL, "-u", "2", "-d", "2s",
			"--repeat", "2", "--no-csv", "--no-report", "-q", "--monitor", "pid="+strconv.Itoa(exp.PID()), "--out", filepath.Join(root, side))
		if code != 0 {
			t.Fatalf("run %s: exit %d: %s", side, code, stderr)
		}
	}
	code, stdout, stderr := runMain(t, t.Context(), "compare", filepath.Join(root, "a"), filepath.Join(root, "b"))
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "target CPU/op (µs/op)") || !strings.Contains(stdout, "p=") {
		t.Errorf("compare lacks target CPU/op with its p-value:\n%s", stdout)
	}
}

// TestSweepMonitor: --monitor passes to every step, and the sweep's
// verdict cites the server's measured CPU.
func TestSweepMonitor(t *testing.T) {
	exp := monitortest.StartNodeExporter(t)
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := runMain(t, t.Context(), "sweep", "http.Request", "--target", exp.URL, "--vus", "1,2", "-d", "2s",
		"--no-csv", "--no-report", "-q", "--monitor", "node="+exp.URL, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "target CPU") || !strings.Contains(stdout, "(measured)") {
		t.Errorf("sweep table lacks the measured target:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, runsweep.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"target": {`) || !strings.Contains(string(b), `"source": "node"`) {
		t.Errorf("sweep.json lacks the target of the points:\n%s", b)
	}
}
