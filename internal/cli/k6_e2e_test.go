package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/output/servertest"
)

// TestK6UserHTTPRun is what a k6 user does on the first day: k6's
// thresholds (with a tagged submetric), k6's flags, --out json= and csv=,
// and jq-style reads of the --summary-export file, unchanged.
func TestK6UserHTTPRun(t *testing.T) {
	var got struct{ ua, auth string }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.ua, got.auth = r.UserAgent(), r.Header.Get("Authorization")
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("hello"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	sum, js, cs := filepath.Join(dir, "summary.json"), filepath.Join(dir, "points.json"), filepath.Join(dir, "points.csv.gz")
	code, stdout, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "-u", "2", "-i", "40",
		"--path", "/{{__ENV.PAGE}}", "-e", "PAGE=hello", "--header", "Authorization: Bearer {{__ENV.TOKEN}}", "-e", "TOKEN=s3cret",
		"--threshold", "http_req_duration: p(95)<2000", "--threshold", "http_req_failed: rate<0.01", "--threshold", "http_reqs: count>0",
		"--threshold", "http_req_duration{expected_response:true}: p(99)<3000", "--threshold", "requests_failed: rate==0",
		"--tag", "env=ci", "--user-agent", "k6-migrant/1.0", "--summary-trend-stats", "avg,p(95),p(99.9),count",
		"--summary-export", sum, "--out", "json="+js, "--out", "csv="+cs, "--out", filepath.Join(dir, "res"), "--quiet", "--no-report")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if got.ua != "k6-migrant/1.0" || got.auth != "Bearer s3cret" {
		t.Errorf("server saw User-Agent %q, Authorization %q", got.ua, got.auth)
	}
	var doc struct {
		Metrics  map[string]map[string]any `json:"metrics"`
		Stampede struct {
			Tags map[string]string `json:"tags"`
		} `json:"stampede"`
	}
	b, err := os.ReadFile(sum)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	// jq '.metrics.http_reqs.count', '.metrics.http_req_failed.value', '.metrics.http_req_duration["p(95)"]'
	m := doc.Metrics
	if m["http_reqs"]["count"] != 40.0 || m["http_req_failed"]["value"] != 0.0 || m["http_req_failed"]["fails"] != 40.0 ||
		m["http_req_duration"]["p(99.9)"] == nil || m["http_req_duration"]["count"] != 40.0 || m["http_req_duration"]["p(90)"] != nil ||
		m["http_req_duration{expected_response:true}"]["count"] != 40.0 || m["data_received"]["count"].(float64) < 40*5 ||
		m["http_req_waiting"] == nil || m["http_req_blocked"] == nil || m["requests_failed"]["value"] != 0.0 {
		t.Errorf("summary metrics: %s", b)
	}
	if th, _ := m["http_req_failed"]["thresholds"].(map[string]any); th["rate<0.01"] != false {
		t.Errorf("http_req_failed thresholds %v", m["http_req_failed"]["thresholds"])
	}
	if doc.Stampede.Tags["env"] != "ci" || doc.Stampede.Tags["testid"] != "res" {
		t.Errorf("tags %v", doc.Stampede.Tags)
	}
	opts, _ := os.ReadFile(filepath.Join(dir, "res", "options.json"))
	if strings.Contains(string(opts), "s3cret") {
		t.Errorf("options.json holds the -e secret: %s", opts)
	}
	// --out json=: NDJSON with k6's Metric and Point lines.
	f, err := os.Open(js)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	points := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line struct {
			Type, Metric string
			Data         struct{ Tags map[string]string }
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if line.Type == "Point" && line.Metric == "http_req_duration" {
			points++
			if line.Data.Tags["url"] != srv.URL+"/hello" || line.Data.Tags["status"] != "200" || line.Data.Tags["env"] != "ci" {
				t.Errorf("tags %v", line.Data.Tags)
			}
		}
	}
	if points != 40 {
		t.Errorf("%d http_req_duration points, want 40", points)
	}
	if st, err := os.Stat(cs); err != nil || st.Size() == 0 {
		t.Errorf("csv stream: %v", err)
	}
	// A failing k6 threshold exits 99; --no-thresholds ignores it; a
	// run whose requests all fail exits 1 (its verdict is failed) before
	// any threshold; an existing stream file is refused before the run.
	code, _, _ = runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/hello", "-u", "1", "-i", "5",
		"--threshold", "http_reqs: count<1", "--out", filepath.Join(dir, "r2"), "--quiet", "--no-report", "--no-csv")
	if code != ExitThresholdsFailed {
		t.Errorf("failing http_reqs threshold: exit %d, want %d", code, ExitThresholdsFailed)
	}
	code, stdout, _ = runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/hello", "-u", "1", "-i", "5", "--no-summary",
		"--threshold", "http_reqs: count<1", "--no-thresholds", "--out", filepath.Join(dir, "r3"), "--quiet", "--no-report", "--no-csv")
	if code != 0 || strings.TrimSpace(stdout) != "" {
		t.Errorf("--no-thresholds --no-summary: exit %d, stdout %q", code, stdout)
	}
	code, _, _ = runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/missing", "-u", "1", "-i", "5",
		"--threshold", "http_req_failed: rate<0.01", "--out", filepath.Join(dir, "r2b"), "--quiet", "--no-report", "--no-csv")
	if code != ExitRunError {
		t.Errorf("every request failed, with a failing threshold: exit %d, want %d (the verdict first)", code, ExitRunError)
	}
	code, _, stderr = runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "-i", "1", "--out", "json="+js, "--out", filepath.Join(dir, "r4"))
	if code != 2 || !strings.Contains(stderr, "exists") {
		t.Errorf("existing json file: exit %d, %s", code, stderr)
	}
	code, _, stderr = runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "-i", "1", "--threshold", "http_req_duration{status:200}: p(95)<1", "--out", filepath.Join(dir, "r5"))
	if code != 2 || !strings.Contains(stderr, "does not record the submetric") {
		t.Errorf("unrecorded submetric: exit %d, %s", code, stderr)
	}
}

// TestK6UserLiveOutputs: an HTTP run writes to a real InfluxDB (database
// created on the fly) and pushes to a real Prometheus, with no manual step;
// both hold k6's HTTP metrics under the run's testid afterwards. The run is
// paced (--rate) so that the servers keep up on a loaded CI machine: an
// unpaced run writes ~350k InfluxDB lines/s, and a server that falls behind
// makes the output drop (and say so), which is correct but not this test.
func TestK6UserLiveOutputs(t *testing.T) {
	influxURL := servertest.InfluxDB(t)
	promURL := servertest.Prometheus(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	dir := t.TempDir()
	code, stdout, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "-u", "2", "-d", "2s", "--rate", "1000",
		"--tag", "testid=live-e2e", "--out", "influxdb="+influxURL+"/k6fresh", "--out", "prometheus-rw="+promURL+"/api/v1/write",
		"--out", filepath.Join(dir, "res"), "--quiet", "--no-report", "--no-csv")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "not written") {
		t.Errorf("lost lines or samples:\n%s", stdout)
	}
	get := func(u string) string {
		t.Helper()
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			b.WriteString(sc.Text())
		}
		return b.String()
	}
	q := url.Values{"db": {"k6fresh"}, "q": {`SELECT sum("value") FROM "http_reqs" WHERE "testid"='live-e2e'; SELECT count("value") FROM "http_req_duration"`}}
	if body := get(influxURL + "/query?" + q.Encode()); !strings.Contains(body, `"sum"`) || !strings.Contains(body, `"count"`) {
		t.Errorf("influxdb: %s", body)
	}
	pq := url.Values{"query": {`k6_http_req_duration_count{testid="live-e2e",scenario="http.Request"}`}}
	if body := get(promURL + "/api/v1/query?" + pq.Encode()); !strings.Contains(body, `"testid":"live-e2e"`) {
		t.Errorf("prometheus: %s", body)
	}
}

// TestK6InsecureSkipTLSVerify: a self-signed https target fails every
// request until --insecure-skip-tls-verify; then k6's TLS phase is timed.
func TestK6InsecureSkipTLSVerify(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are expected
	srv.StartTLS()
	defer srv.Close()
	dir := t.TempDir()
	read := func(name string) map[string]map[string]any {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Metrics map[string]map[string]any }
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Metrics
	}
	runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "-u", "1", "-i", "3", "--out", filepath.Join(dir, "strict"), "--quiet", "--no-report", "--no-csv")
	if m := read("strict"); m["http_req_failed"]["value"] != 1.0 {
		t.Errorf("self-signed certificate accepted without the flag: %v", m["http_req_failed"])
	}
	code, _, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "-u", "1", "-i", "3", "--insecure-skip-tls-verify",
		"--out", filepath.Join(dir, "insecure"), "--quiet", "--no-report", "--no-csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := read("insecure")
	if m["http_req_failed"]["value"] != 0.0 || m["http_reqs"]["count"] != 3.0 {
		t.Errorf("with --insecure-skip-tls-verify: %v %v", m["http_req_failed"], m["http_reqs"])
	}
	if tls := m["http_req_tls_handshaking"]["max"].(float64); tls <= 0 {
		t.Errorf("TLS handshake not timed: %v", m["http_req_tls_handshaking"])
	}
}
