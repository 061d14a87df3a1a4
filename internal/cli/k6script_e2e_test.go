package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// k6Target is the local HTTP target of the k6 script corpus.
func k6Target(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hello":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("hello"))
		case "/bin":
			w.Write([]byte{0, 1, 2, 3})
		case "/redirect":
			http.Redirect(w, r, "/hello", http.StatusFound)
		case "/setcookie":
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "abc", Path: "/"})
		case "/echo":
			b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			hdr := map[string]string{}
			for k := range r.Header {
				hdr[k] = r.Header.Get(k)
			}
			var body any
			form := ""
			if json.Unmarshal(b, &body) != nil {
				body, form = string(b), string(b)
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "headers": hdr, "body": body, "form": form})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestK6ScriptCorpus runs each script of testdata/k6scripts (one per k6
// API stampede implements) against a local target and checks its exit
// code, metric values and check results in the summary.
func TestK6ScriptCorpus(t *testing.T) {
	srv := k6Target(t)
	type check struct{ passes, fails float64 }
	tests := []struct {
		script  string
		args    []string
		code    int
		metrics map[string]float64 // "metric.field" -> value
		checks  map[string]check
		stderr  string // must appear in stderr
		once    string // must appear in stderr exactly once
		stdout  string
		maxTime time.Duration
	}{
		{script: "http_get_check.js", metrics: map[string]float64{"http_reqs.count": 10, "http_req_failed.value": 0, "iterations.count": 10, "checks.passes": 20},
			checks: map[string]check{"status is 200": {10, 0}, "body says hello": {10, 0}}},
		{script: "http_get_check.js", args: []string{"--config", "testdata/k6scripts/thresholds_ok.yaml"}, metrics: map[string]float64{"http_req_duration{status:200}.max": -1}},
		{script: "http_get_check.js", args: []string{"--config", "testdata/k6scripts/thresholds_fail.yaml"}, code: ExitThresholdsFailed},
		{script: "http_methods.js", metrics: map[string]float64{"http_reqs.count": 9, "checks.fails": 0},
			checks: map[string]check{"post echoes json": {1, 0}, "post header seen": {1, 0}, "put": {1, 0}, "patch": {1, 0}, "del": {1, 0}, "head": {1, 0}, "options": {1, 0}, "request": {1, 0}, "form body": {1, 0}, "binary body": {1, 0}}},
		{script: "http_batch.js", metrics: map[string]float64{"http_reqs.count": 6, "http_req_failed.passes": 2}, checks: map[string]check{"batch answers in order": {2, 0}}},
		{script: "expected_statuses.js", metrics: map[string]float64{"http_reqs.count": 4, "http_req_failed.value": 0}, checks: map[string]check{"not found": {4, 0}}},
		{script: "redirects_cookies.js", metrics: map[string]float64{"http_reqs.count": 5}, checks: map[string]check{"followed": {1, 0}, "not followed": {1, 0}, "cookie sent back": {1, 0}}},
		{script: "custom_metrics.js", metrics: map[string]float64{"items.count": 20, "good.value": 0.5, "sizes.max": 9, "queue_len.value": 9}},
		{script: "groups.js", metrics: map[string]float64{"group_duration.count": 6}, checks: map[string]check{"in a group": {3, 0}}, args: []string{"--summary-trend-stats", "avg,max,count"}},
		{script: "lifecycle.js", checks: map[string]check{"setup data reaches the VU": {4, 0}}, stdout: "iterations=4\n"},
		{script: "setup_requests.js", metrics: map[string]float64{"http_reqs.count": 5, "iterations.count": 2, "http_reqs{group:::setup}.count": 1,
			"http_reqs{group:::teardown}.count": 1, "checks{group:::setup}.passes": 1, "group_duration.max": -1}, checks: map[string]check{"setup got hello": {1, 0}}},
		{script: "vu_tags.js", metrics: map[string]float64{"http_reqs{kind:tagged}.count": 2, "items{kind:tagged}.count": 4}},
		{script: "scenarios.js", metrics: map[string]float64{"iterations{scenario:readers}.count": 6, "iterations{scenario:shared}.count": 5},
			checks: map[string]check{"reader env and name": {6, 0}, "vu id positive": {5, 0}}},
		{script: "options_http.js", checks: map[string]check{"user agent from options": {3, 0}, "a new connection each time": {3, 0}}},
		{script: "threshold_fails.js", code: ExitThresholdsFailed},
		{script: "no_checks.js", metrics: map[string]float64{"iterations.count": 2}},
		{script: "abort.js", code: ExitScriptAborted, maxTime: 10 * time.Second, stderr: "enough"},
		{script: "abort_on_fail.js", code: ExitThresholdsFailed, maxTime: 15 * time.Second, stderr: "abortOnFail"},
		{script: "exception.js", metrics: map[string]float64{"iterations.count": 6, "errors.count": 3}, stderr: "exception.js:4:",
			once: "Error: boom at "},
		{script: "shared_array.js", checks: map[string]check{"shared array readable": {4, 0}, "shared array read-only": {4, 0}}},
		{script: "typescript.ts", checks: map[string]check{"typescript runs": {2, 0}}},
		{script: "unsupported_module.js", code: 2, stderr: `module "k6/ws" is not supported`},
		{script: "unsupported_function.js", code: 2, stderr: "k6/http.asyncRequest is not supported"},
		{script: "unsupported_option.js", code: 2, stderr: `option "hosts" is not supported`},
		{script: "bad_executor_field.js", code: 2, stderr: `constant-vus has no option "rate"`},
		{script: "syntax_error.js", code: 2, stderr: "syntax_error.js:2:11: syntax error"},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			dir := t.TempDir()
			wd, _ := os.Getwd()
			script := filepath.Join(wd, "testdata", "k6scripts", tc.script)
			sum := filepath.Join(dir, "summary.json")
			args := append([]string{"run", script, "-e", "BASE=" + srv.URL, "-e", "SUMMARY_FILE=" + filepath.Join(dir, "hs.json"),
				"--out", filepath.Join(dir, "res"), "--summary-export", sum, "--no-report", "--no-csv", "-q"}, tc.args...)
			start := time.Now()
			code, stdout, stderr := runMain(t, t.Context(), args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			if tc.maxTime > 0 && time.Since(start) > tc.maxTime {
				t.Errorf("took %s, want < %s", time.Since(start), tc.maxTime)
			}
			if tc.stderr != "" && !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
			if tc.once != "" && strings.Count(stderr, tc.once) != 1 {
				t.Errorf("stderr has %q %d times, want once:\n%s", tc.once, strings.Count(stderr, tc.once), stderr)
			}
			if tc.stdout != "" && stdout != tc.stdout {
				t.Errorf("stdout %q, want %q", stdout, tc.stdout)
			}
			if tc.script == "lifecycle.js" { // handleSummary's file
				if b, err := os.ReadFile(filepath.Join(dir, "hs.json")); err != nil || string(b) != `{"checks":1}` {
					t.Errorf("handleSummary file: %q %v, want {\"checks\":1}", b, err)
				}
			}
			if tc.code == 2 {
				if _, err := os.Stat(filepath.Join(dir, "res")); err == nil {
					t.Errorf("a refused script left a result directory")
				}
				return
			}
			var doc struct {
				RootGroup struct {
					Checks map[string]struct{ Passes, Fails float64 } `json:"checks"`
				} `json:"root_group"`
				Metrics map[string]map[string]any `json:"metrics"`
			}
			b, err := os.ReadFile(sum)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			for key, want := range tc.metrics {
				i := strings.LastIndexByte(key, '.')
				m, f := key[:i], key[i+1:]
				got, ok := doc.Metrics[m][f].(float64)
				if want < 0 && ok && got > 0 { // any positive value
					continue
				}
				if !ok || got != want {
					t.Errorf("%s = %v, want %v", key, doc.Metrics[m][f], want)
				}
			}
			for name, want := range tc.checks {
				got, ok := doc.RootGroup.Checks[name]
				if !ok || got.Passes != want.passes || got.Fails != want.fails {
					t.Errorf("check %q = %+v, want %+v (checks: %v)", name, got, want, doc.RootGroup.Checks)
				}
			}
		})
	}
}

// TestK6BatchParallel runs http.batch against a target that answers after
// 200 ms and counts the requests in flight: a batch's requests run in
// parallel, bounded by batchPerHost (default 6) and batch, as in k6.
func TestK6BatchParallel(t *testing.T) {
	const sleep = 200 * time.Millisecond
	var mu sync.Mutex
	inflight, peak := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inflight++
		peak = max(peak, inflight)
		mu.Unlock()
		time.Sleep(sleep)
		mu.Lock()
		inflight--
		mu.Unlock()
		w.Write([]byte(r.URL.Query().Get("i")))
	}))
	t.Cleanup(srv.Close)
	wd, _ := os.Getwd()
	script := filepath.Join(wd, "testdata", "k6scripts", "batch_parallel.js")
	for _, tc := range []struct {
		name      string
		env       []string
		peak      int
		maxRounds int
	}{
		{name: "default batchPerHost", peak: 6, maxRounds: 2},
		{name: "batchPerHost 8", env: []string{"-e", "PER_HOST=8"}, peak: 8, maxRounds: 1},
		{name: "batch 2", env: []string{"-e", "PER_HOST=8", "-e", "BATCH=2"}, peak: 2, maxRounds: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			peak = 0
			mu.Unlock()
			dir := t.TempDir()
			sum := filepath.Join(dir, "summary.json")
			args := append([]string{"run", script, "-e", "BASE=" + srv.URL, "--out", filepath.Join(dir, "res"),
				"--summary-export", sum, "--no-report", "--no-csv", "-q"}, tc.env...)
			if code, stdout, stderr := runMain(t, t.Context(), args...); code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			mu.Lock()
			got := peak
			mu.Unlock()
			if got != tc.peak {
				t.Errorf("peak requests in flight %d, want %d", got, tc.peak)
			}
			var doc struct {
				RootGroup struct {
					Checks map[string]struct{ Passes, Fails float64 } `json:"checks"`
				} `json:"root_group"`
				Metrics map[string]map[string]any `json:"metrics"`
			}
			b, err := os.ReadFile(sum)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			if c := doc.RootGroup.Checks["all answered in order"]; c.Passes != 1 {
				t.Errorf("check: %+v", c)
			}
			if n := doc.Metrics["http_reqs"]["count"]; n != 8.0 {
				t.Errorf("http_reqs %v, want 8 (one per request of the batch)", n)
			}
			if d, _ := doc.Metrics["http_req_duration"]["min"].(float64); d < float64(sleep/time.Millisecond) {
				t.Errorf("http_req_duration min %v ms, want ≥ %v (each request timed on its own)", d, sleep)
			}
			// The rounds take maxRounds × 200 ms; sequential requests would
			// take 8 × 200 ms. Allow one more round for a loaded machine.
			limit := float64((time.Duration(tc.maxRounds+1) * sleep) / time.Millisecond)
			if took, _ := doc.Metrics["batch_took"]["max"].(float64); took <= 0 || took >= limit {
				t.Errorf("the batch took %v ms, want < %v ms (8 sequential requests: %v ms)", took, limit, 8*sleep.Milliseconds())
			}
		})
	}
}
