package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
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
		{script: "scenarios.js", metrics: map[string]float64{"iterations{scenario:readers}.count": 6, "iterations{scenario:shared}.count": 5},
			checks: map[string]check{"reader env and name": {6, 0}, "vu id positive": {5, 0}}},
		{script: "options_http.js", checks: map[string]check{"user agent from options": {3, 0}, "a new connection each time": {3, 0}}},
		{script: "threshold_fails.js", code: ExitThresholdsFailed},
		{script: "no_checks.js", metrics: map[string]float64{"iterations.count": 2}},
		{script: "abort.js", code: ExitScriptAborted, maxTime: 10 * time.Second, stderr: "enough"},
		{script: "abort_on_fail.js", code: ExitThresholdsFailed, maxTime: 15 * time.Second, stderr: "abortOnFail"},
		{script: "exception.js", metrics: map[string]float64{"iterations.count": 6, "errors.count": 3}, stderr: "exception.js:4:"},
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
