package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/output/servertest"
)

// dashQuery is one query of a published dashboard (testdata/k6dashboards).
type dashQuery struct{ panel, ref, query string }

func readDashQueries(t *testing.T, name string) []dashQuery {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "k6dashboards", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []dashQuery
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			t.Fatalf("%s: bad line %q", name, line)
		}
		out = append(out, dashQuery{f[0], f[1], f[2]})
	}
	if len(out) == 0 {
		t.Fatalf("%s: no queries", name)
	}
	return out
}

// TestK6DashboardsQueries runs the same HTTP test a k6 user runs (5 VUs,
// every 10th response a 500, a check) with --out influxdb= and --out
// prometheus-rw= into a real InfluxDB 1.x and a real Prometheus, then
// runs every query of k6's published dashboards (testdata/k6dashboards,
// with where each came from): each must return data, and the figures a
// panel shows must be the summary's.
func TestK6DashboardsQueries(t *testing.T) {
	influx := servertest.InfluxDB(t)
	prom := servertest.Prometheus(t)
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%10 == 0 {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		time.Sleep(time.Duration(n.Load()%3) * time.Millisecond)
		w.Write([]byte("hello"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	sum := filepath.Join(dir, "summary.json")
	code, stdout, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "-u", "5", "-d", "4s",
		"--expect-status", "200", "--tag", "testid=dash1", "--out", "influxdb="+influx+"/k6",
		"--out", "prometheus-rw="+prom+"/api/v1/write", "--summary-export", sum, "--out", filepath.Join(dir, "res"), "--quiet", "--no-report")
	if code != ExitOK && code != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	var doc struct {
		Metrics map[string]map[string]float64 `json:"metrics"`
	}
	b, err := os.ReadFile(sum)
	if err != nil {
		t.Fatal(err)
	}
	// the thresholds maps are not floats: decode loosely
	var loose struct {
		Metrics map[string]map[string]any `json:"metrics"`
	}
	if err := json.Unmarshal(b, &loose); err != nil {
		t.Fatal(err)
	}
	doc.Metrics = map[string]map[string]float64{}
	for m, kv := range loose.Metrics {
		doc.Metrics[m] = map[string]float64{}
		for k, v := range kv {
			if f, ok := v.(float64); ok {
				doc.Metrics[m][k] = f
			}
		}
	}
	reqs := doc.Metrics["http_reqs"]["count"]
	failed := doc.Metrics["http_req_failed"]["passes"]
	checks := doc.Metrics["checks"]["passes"] + doc.Metrics["checks"]["fails"]
	maxMS := doc.Metrics["http_req_duration"]["max"]
	if reqs < 50 || failed < 5 || checks != reqs {
		t.Fatalf("summary: %d requests, %d failed, %d checks", int(reqs), int(failed), int(checks))
	}

	t.Run("prometheus-rw", func(t *testing.T) {
		stats := promValues(t, prom, `{__name__=~"k6_http_req_duration_.+", testid="dash1"}`)
		seenStat := map[string]bool{}
		for _, s := range stats {
			seenStat[strings.TrimPrefix(s.metric["__name__"], "k6_http_req_duration_")] = true
		}
		for _, st := range []string{"p99", "p95", "p90", "med", "avg", "min", "max"} {
			if !seenStat[st] {
				t.Errorf("no k6_http_req_duration_%s ($quantile_stat) series", st)
			}
		}
		for _, q := range readDashQueries(t, "prometheus-rw.txt") {
			stats := []string{"p99"}
			if strings.Contains(q.query, "$quantile_stat") {
				stats = []string{"p99", "p95", "p90", "med", "avg", "min", "max"}
			}
			for _, st := range stats {
				expr := strings.NewReplacer("$testid", "dash1", "$quantile_stat", st, "$__rate_interval", "1m").Replace(q.query)
				if vs := promValues(t, prom, expr); len(vs) == 0 {
					t.Errorf("%s %s: %s returned nothing", q.panel, q.ref, expr)
				}
			}
		}
		near := func(name, expr string, want, tol float64) {
			t.Helper()
			vs := promValues(t, prom, expr)
			if len(vs) != 1 || math.Abs(vs[0].value-want) > tol {
				t.Errorf("%s: %s = %v, summary %v", name, expr, vs, want)
			}
		}
		near("HTTP requests", `sum(k6_http_reqs_total{testid=~"dash1"})`, reqs, 0)
		near("HTTP request failures", `sum(k6_http_reqs_total{testid=~"dash1", expected_response="false"})`, failed, 0)
		near("failures by error_code", `sum(k6_http_reqs_total{testid="dash1", error_code="1500", status="500"})`, failed, 0)
		near("max duration", `max(k6_http_req_duration_max{testid="dash1"})`, maxMS/1e3, maxMS/1e3*0.002)
		near("checks", `k6_checks_rate{testid="dash1", check="status is 200"}`, doc.Metrics["checks"]["value"], 1e-9)
		near("data_sent", `sum(k6_data_sent_total{testid="dash1"})`, doc.Metrics["data_sent"]["count"], 0)
		near("first dials", `sum(k6_http_req_connecting_count{testid="dash1"})`, reqs, 0)
		if vs := promValues(t, prom, `max(k6_http_req_connecting_max{testid="dash1"})`); len(vs) != 1 || vs[0].value <= 0 {
			t.Errorf("k6_http_req_connecting_max = %v: the VUs' first dials are not timed", vs)
		}
		near("iterations", `sum(k6_iterations_total{testid="dash1"})`, doc.Metrics["iterations"]["count"], 0)

		// stampede's own dashboard works from remote write too (this
		// Prometheus scraped nothing), with its testid variable.
		raw, err := os.ReadFile(filepath.Join("..", "..", "deploy", "grafana", "stampede-prometheus.json"))
		if err != nil {
			t.Fatal(err)
		}
		var dash struct {
			Panels []struct {
				Title   string
				Targets []struct{ Expr string }
			}
			Templating struct{ List []struct{ Name string } }
		}
		if err := json.Unmarshal(raw, &dash); err != nil {
			t.Fatal(err)
		}
		hasTestid := false
		for _, v := range dash.Templating.List {
			hasTestid = hasTestid || v.Name == "testid"
		}
		if !hasTestid {
			t.Error("stampede-prometheus.json has no testid variable")
		}
		for _, p := range dash.Panels {
			for _, tg := range p.Targets {
				if tg.Expr == "" || strings.Contains(tg.Expr, "generator") || strings.Contains(tg.Expr, "process_") ||
					strings.Contains(tg.Expr, "dropped_iterations") {
					continue // the generator's own gauges are on the scrape endpoint only; no iteration was dropped
				}
				expr := strings.NewReplacer("$testid", "dash1", "$scenario", ".*", "$__rate_interval", "1m").Replace(tg.Expr)
				if vs := promValues(t, prom, expr); len(vs) == 0 {
					t.Errorf("stampede dashboard %q: %s returned nothing from remote write", p.Title, expr)
				}
			}
		}
	})

	t.Run("influxdb", func(t *testing.T) {
		for _, q := range readDashQueries(t, "influxdb.txt") {
			iq := strings.NewReplacer("$timeFilter", "time > now() - 10m", "$__interval", "1s").Replace(q.query)
			if vs := influxValues(t, influx, iq); len(vs) == 0 {
				t.Errorf("%s %s: %s returned nothing", q.panel, q.ref, iq)
			}
		}
		total := func(q string) float64 {
			var s float64
			for _, v := range influxValues(t, influx, q) {
				s += v
			}
			return s
		}
		// Errors Per Second and Checks Per Second: count("value") per second, summed over the run.
		if got := total(`SELECT count("value") FROM "errors" WHERE time > now() - 10m GROUP BY time(1s) fill(none)`); got != failed {
			t.Errorf("errors counted per second sum to %v, summary %v failed requests", got, failed)
		}
		if got := total(`SELECT count("value") FROM "checks" WHERE time > now() - 10m GROUP BY time(1s) fill(none)`); got != checks {
			t.Errorf("checks counted per second sum to %v, summary %v", got, checks)
		}
		if got := total(`SELECT count("value") FROM "http_reqs" WHERE time > now() - 10m`); got != reqs {
			t.Errorf("http_reqs points %v, summary %v", got, reqs)
		}
		if got := total(`SELECT max("value") FROM "http_req_duration" WHERE time > now() - 10m`); math.Abs(got-maxMS) > maxMS*0.002 {
			t.Errorf("max(http_req_duration) %v, summary max %v", got, maxMS)
		}
		if got := total(`SELECT count("value") FROM "http_reqs" WHERE time > now() - 10m AND "expected_response"='false' AND "status"='500' AND "error_code"='1500'`); got != failed {
			t.Errorf("tagged failed http_reqs %v, summary %v", got, failed)
		}
		for _, m := range []string{"http_req_blocked", "http_req_connecting", "http_req_tls_handshaking", "http_req_sending",
			"http_req_waiting", "http_req_receiving", "iteration_duration", "iterations", "vus", "vus_max", "data_sent", "data_received"} {
			if vs := influxValues(t, influx, `SELECT count("value") FROM "`+m+`" WHERE time > now() - 10m`); len(vs) == 0 || vs[0] == 0 {
				t.Errorf("no %s points", m)
			}
		}
		if got := total(`SELECT max("value") FROM "http_req_connecting" WHERE time > now() - 10m`); got <= 0 {
			t.Errorf("max(http_req_connecting) = %v: the VUs' first dials are not timed", got)
		}
	})
}

type promSample struct {
	metric map[string]string
	value  float64
}

func promValues(t *testing.T, base, expr string) []promSample {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/query?query=" + url.QueryEscape(expr))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Status string
		Error  string
		Data   struct {
			Result []struct {
				Metric map[string]string
				Value  [2]any
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.Status != "success" {
		t.Fatalf("%s: %v %s", expr, err, r.Error)
	}
	var out []promSample
	for _, s := range r.Data.Result {
		v, _ := strconv.ParseFloat(fmt.Sprint(s.Value[1]), 64)
		out = append(out, promSample{s.Metric, v})
	}
	return out
}

// influxValues returns the first value column of every row of q's series.
func influxValues(t *testing.T, base, q string) []float64 {
	t.Helper()
	resp, err := http.PostForm(base+"/query?db=k6", url.Values{"q": {q}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Results []struct {
			Series []struct{ Values [][]any } `json:"series"`
			Error  string                     `json:"error"`
		} `json:"results"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || len(r.Results) == 0 || r.Results[0].Error != "" {
		t.Fatalf("%s: %v %+v", q, err, r)
	}
	var out []float64
	for _, s := range r.Results[0].Series {
		for _, row := range s.Values {
			if len(row) > 1 {
				if f, ok := row[1].(float64); ok {
					out = append(out, f)
				}
			}
		}
	}
	return out
}
