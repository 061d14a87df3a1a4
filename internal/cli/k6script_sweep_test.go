package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readK6Summary reads the metrics and checks of a result directory's
// summary.json.
func readK6Summary(t *testing.T, dir string) (map[string]map[string]any, map[string]struct{ Passes, Fails float64 }) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		RootGroup struct {
			Checks map[string]struct{ Passes, Fails float64 } `json:"checks"`
		} `json:"root_group"`
		Metrics map[string]map[string]any `json:"metrics"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Metrics, doc.RootGroup.Checks
}

// TestK6ScriptSweep sweeps a k6 script over VUs: each step is a run of the
// script with -u N, analysed like a built-in scenario's sweep.
func TestK6ScriptSweep(t *testing.T) {
	srv := k6Target(t)
	wd, _ := os.Getwd()
	script := filepath.Join(wd, "testdata", "k6scripts", "http_get_check.js")
	parent := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := runMain(t, t.Context(), "sweep", script, "--vus", "1,2", "-i", "6", "-e", "BASE="+srv.URL,
		"--out", parent, "--no-report", "--no-csv", "-q")
	if code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "VU sweep") {
		t.Errorf("no sweep table:\n%s", stdout)
	}
	for i, dir := range []string{"step-01-1", "step-02-2"} {
		m, checks := readK6Summary(t, filepath.Join(parent, dir))
		if n := m["http_reqs"]["count"]; n != 6.0 {
			t.Errorf("%s: http_reqs %v, want 6", dir, n)
		}
		if v := m["vus_max"]["max"]; v != float64(i+1) {
			t.Errorf("%s: vus_max %v, want %d", dir, v, i+1)
		}
		if c := checks["status is 200"]; c.Passes != 6 {
			t.Errorf("%s: check status is 200 = %+v", dir, c)
		}
	}
	var an struct {
		Curves []struct {
			Points []struct {
				VUs        float64 `json:"vus"`
				Iterations float64 `json:"iterations"`
			} `json:"points"`
		} `json:"curves"`
	}
	b, err := os.ReadFile(filepath.Join(parent, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &an); err != nil || len(an.Curves) != 1 || len(an.Curves[0].Points) != 2 ||
		an.Curves[0].Points[1].VUs != 2 || an.Curves[0].Points[1].Iterations != 6 {
		t.Errorf("sweep.json: %v %s", err, b)
	}
	// compare and report read the steps like any result directory.
	if code, stdout, stderr := runMain(t, t.Context(), "compare", filepath.Join(parent, "step-01-1"), filepath.Join(parent, "step-02-2")); code != 0 || !strings.Contains(stdout, "candidate/base") {
		t.Errorf("compare: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, _, stderr := runMain(t, t.Context(), "report", filepath.Join(parent, "step-01-1")); code != 0 {
		t.Errorf("report: exit %d\n%s", code, stderr)
	} else if _, err := os.Stat(filepath.Join(parent, "step-01-1", "report.html")); err != nil {
		t.Errorf("report: %v", err)
	}
}

// TestK6ScriptSweepEnds checks what ends a sweep of a script: failed
// thresholds go on (exit 99 at the end), test.abort() ends it (108), and
// what does not apply to a script is refused before the first step.
func TestK6ScriptSweepEnds(t *testing.T) {
	srv := k6Target(t)
	wd, _ := os.Getwd()
	k6s := func(s string) string { return filepath.Join(wd, "testdata", "k6scripts", s) }
	tests := []struct {
		name   string
		args   []string
		code   int
		steps  int    // result directories left
		stderr string // in stderr
	}{
		{name: "thresholds fail in every step", args: []string{k6s("threshold_fails.js"), "--vus", "1,2"}, code: ExitThresholdsFailed, steps: 2},
		{name: "the script aborts the second step", args: []string{k6s("sweep_abort.js"), "--vus", "1,3", "-i", "5", "-e", "ABORT_AT=2"},
			code: ExitScriptAborted, steps: 2, stderr: "too many VUs"},
		{name: "nodes resized by a hook", args: []string{k6s("no_checks.js"), "--nodes", "1,2", "--before-step", "test {nodes} -ge 1", "-i", "2"}, steps: 2},
		{name: "rate", args: []string{k6s("http_get_check.js"), "--rate", "10,20"}, code: 2, stderr: "--rate does not apply to a k6 script"},
		{name: "targets", args: []string{k6s("http_get_check.js"), "--targets", srv.URL + " " + srv.URL}, code: 2, stderr: "--targets does not apply to a k6 script"},
		{name: "unsupported module", args: []string{k6s("unsupported_module.js"), "--vus", "1,2"}, code: 2, stderr: `module "k6/ws" is not supported`},
		{name: "two scripts", args: []string{k6s("http_get_check.js"), k6s("no_checks.js"), "--vus", "1,2"}, code: 2, stderr: "one k6 script"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := filepath.Join(t.TempDir(), "sweep")
			args := append(append([]string{"sweep"}, tc.args...), "-e", "BASE="+srv.URL, "--out", parent, "--no-report", "--no-csv", "-q")
			code, stdout, stderr := runMain(t, t.Context(), args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			if tc.stderr != "" && !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
			dirs, _ := filepath.Glob(filepath.Join(parent, "step-*", "summary.json"))
			if len(dirs) != tc.steps {
				t.Errorf("%d steps ran, want %d: %v", len(dirs), tc.steps, dirs)
			}
		})
	}
}

// TestK6ScriptSegmentsMerge runs a script in two segments and merges
// them: the merged counts and checks are the sum of the parts.
func TestK6ScriptSegmentsMerge(t *testing.T) {
	srv := k6Target(t)
	wd, _ := os.Getwd()
	script := filepath.Join(wd, "testdata", "k6scripts", "http_get_check.js")
	dir := t.TempDir()
	var parts []string
	for _, seg := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, "seg"+seg[:1])
		parts = append(parts, out)
		if code, stdout, stderr := runMain(t, t.Context(), "run", script, "-u", "4", "-i", "20", "--segment", seg, "-e", "BASE="+srv.URL,
			"--out", out, "--no-report", "-q"); code != 0 {
			t.Fatalf("segment %s: exit %d\n%s\n%s", seg, code, stdout, stderr)
		}
	}
	merged := filepath.Join(dir, "merged")
	if code, stdout, stderr := runMain(t, t.Context(), append(append([]string{"merge"}, parts...), "--out", merged)...); code != 0 {
		t.Fatalf("merge: exit %d\n%s\n%s", code, stdout, stderr)
	}
	m1, _ := readK6Summary(t, parts[0])
	m, checks := readK6Summary(t, merged)
	if n := m1["http_reqs"]["count"]; n != 10.0 {
		t.Errorf("segment 1/2: http_reqs %v, want 10 (half of 20 iterations)", n)
	}
	if n := m["http_reqs"]["count"]; n != 20.0 {
		t.Errorf("merged http_reqs %v, want 20", n)
	}
	if v := m["vus_max"]["max"]; v != 4.0 {
		t.Errorf("merged vus_max %v, want 4", v)
	}
	if c := checks["status is 200"]; c.Passes != 20 || c.Fails != 0 {
		t.Errorf("merged check status is 200 = %+v, want 20 passes", c)
	}
}

// TestK6ScriptMonitor watches this process while a script runs: the
// result directory has the monitor's samples.
func TestK6ScriptMonitor(t *testing.T) {
	wd, _ := os.Getwd()
	out := filepath.Join(t.TempDir(), "res")
	code, stdout, stderr := runMain(t, t.Context(), "run", filepath.Join(wd, "testdata", "k6scripts", "sweep_abort.js"), "-u", "1", "-d", "2500ms",
		"--monitor", "pid="+strconv.Itoa(os.Getpid()), "-e", "ABORT_AT=99", "--out", out, "--no-report", "--no-csv", "-q")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "monitor.jsonl"))
	if err != nil || !strings.Contains(string(b), `"proc_cpu_cores"`) {
		t.Errorf("monitor.jsonl: %v %.300s", err, b)
	}
}

// TestK6ScriptStreamTags: k6's JSON stream of a script carries each
// request's group, name, url and error_code tags as k6 writes them.
func TestK6ScriptStreamTags(t *testing.T) {
	srv := k6Target(t)
	wd, _ := os.Getwd()
	dir := t.TempDir()
	stream := filepath.Join(dir, "out.json")
	code, stdout, stderr := runMain(t, t.Context(), "run", filepath.Join(wd, "testdata", "k6scripts", "setup_requests.js"), "-e", "BASE="+srv.URL,
		"--out", filepath.Join(dir, "res"), "--out", "json="+stream, "--no-report", "--no-csv", "-q")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(stream)
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		var p struct {
			Type, Metric string
			Data         struct{ Tags map[string]string }
		}
		if json.Unmarshal([]byte(line), &p) != nil || p.Type != "Point" || p.Metric != "http_reqs" {
			continue
		}
		groups[p.Data.Tags["group"]]++
		if u := p.Data.Tags["url"]; !strings.HasPrefix(u, srv.URL+"/") || p.Data.Tags["name"] != u {
			t.Errorf("url %q name %q", u, p.Data.Tags["name"])
		}
	}
	want := map[string]int{"::setup": 1, "::setup::login": 1, "": 2, "::teardown": 1}
	if fmt.Sprint(groups) != fmt.Sprint(want) {
		t.Errorf("http_reqs by group %v, want %v", groups, want)
	}
}
