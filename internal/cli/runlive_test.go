package cli

import (
	"context"
	"io"
	"net"
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

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/influx"
	"github.com/stampede-bench/stampede/internal/output/prom"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
	"github.com/stampede-bench/stampede/metric"
)

// influxSink is an InfluxDB stand-in that sums the "value" field per
// measurement and scenario.
type influxSink struct {
	mu     sync.Mutex
	sums   map[string]int64 // measurement/scenario → sum of value
	auth   []string
	writes int
}

func (s *influxSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.URL.Path == "/ping" { // the check before the run
		w.Header().Set("X-Influxdb-Version", "1.8-test")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.URL.Path == "/query" { // CREATE DATABASE
		io.WriteString(w, `{"results":[{"statement_id":0}]}`)
		return
	}
	dec := lp.NewDecoderWithBytes(body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	for dec.Next() {
		m, err := dec.Measurement()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		scenario := ""
		for {
			k, v, err := dec.NextTag()
			if err != nil || k == nil {
				break
			}
			if string(k) == "scenario" {
				scenario = string(v)
			}
		}
		for {
			k, v, err := dec.NextField()
			if err != nil || k == nil {
				break
			}
			if string(k) == "value" && v.Kind() == lp.Int {
				s.sums[string(m)+"/"+scenario] += v.IntV()
			}
			if string(k) == "value" && v.Kind() == lp.Float { // counts are floats, as k6 writes them
				s.sums[string(m)+"/"+scenario] += int64(v.FloatV())
			}
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// TestRunLiveOutputs runs with Prometheus and InfluxDB on: the endpoint
// answers on loopback during the run, InfluxDB receives every iteration.
func TestRunLiveOutputs(t *testing.T) {
	sink := &influxSink{sums: map[string]int64{}}
	srv := httptest.NewServer(sink)
	defer srv.Close()
	t.Setenv(influx.TokenEnv, "tok-123")
	port := freePort(t)
	dir := filepath.Join(t.TempDir(), "res")

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	scraped := make(chan string, 1)
	go func() {
		// ":PORT" binds loopback only: scrape 127.0.0.1 while the run goes.
		for ctx.Err() == nil {
			resp, err := http.Get("http://127.0.0.1:" + port + "/metrics")
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				// testid: the run's tag (the result directory's name).
				if strings.Contains(string(b), `stampede_requests_total{scenario="builtin.Noop",testid="res"}`) &&
					!strings.Contains(string(b), `stampede_requests_total{scenario="builtin.Noop",testid="res"} 0`) {
					scraped <- string(b)
					return
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	code, _, stderr := runMain(t, ctx, "run", "builtin.Noop", "-u", "2", "-d", "3s", "--rate", "2000", "--no-csv",
		"--prometheus", ":"+port, "--out", "influxdb="+srv.URL+"/k6", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	select {
	case page := <-scraped:
		for _, want := range []string{"stampede_response_time_seconds_bucket", "stampede_vus", "stampede_generator_cpu_ratio", "process_cpu_seconds_total"} {
			if !strings.Contains(page, want) {
				t.Errorf("scrape lacks %s", want)
			}
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no scrape with requests during the run")
	}
	if !strings.Contains(stderr, "prometheus: http://127.0.0.1:"+port+"/metrics") || !strings.Contains(stderr, "influxdb: writing to") {
		t.Errorf("stderr does not announce the outputs: %s", stderr)
	}
	if strings.Contains(stderr, "tok-123") {
		t.Error("the InfluxDB token was printed")
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Snapshot.Scenario("builtin.Noop")
	sink.mu.Lock()
	got := sink.sums["iterations/builtin.Noop"]
	auth := sink.auth[0]
	sink.mu.Unlock()
	if got != sc.Counters[metrics.Iterations] || got == 0 {
		t.Errorf("InfluxDB got %d iterations, the snapshot has %d", got, sc.Counters[metrics.Iterations])
	}
	if auth != "Token tok-123" {
		t.Errorf("Authorization %q", auth)
	}
	for _, n := range sc.Notes {
		if strings.Contains(n, "influxdb") {
			t.Errorf("note about a healthy InfluxDB: %s", n)
		}
	}
	if r, err := selfcheck.Read(dir); err != nil || r == nil || len(r.Samples) == 0 {
		t.Errorf("selfcheck.json: %v, %v", r, err)
	}
	// The port is free again after the run.
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		t.Errorf("prometheus port still held: %v", err)
	} else {
		ln.Close()
	}
}

// TestRunInfluxDown: an InfluxDB that answers the check before the run
// and then goes away costs its lines, counted in the summary notes, and
// never fails the run. (A dead InfluxDB at the start is refused: exit 2,
// see TestGuardRailsRefuse.)
func TestRunInfluxDown(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "res")
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ping" {
			w.Header().Set("X-Influxdb-Version", "1.8-test")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if hj, ok := w.(http.Hijacker); ok { // gone mid-run: the connection drops
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
			}
		}
	}))
	defer down.Close()
	code, _, stderr := runMain(t, t.Context(), "run", "builtin.Noop", "-u", "2", "-d", "2s", "--no-csv", "--no-report", "--quiet",
		"--out", "influxdb="+down.URL+"/k6", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "influxdb:"); n != 1 {
		t.Errorf("want one warning line about InfluxDB, got %d: %s", n, stderr)
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var note string
	for _, n := range res.Snapshot.Scenario("builtin.Noop").Notes {
		if strings.Contains(n, "influxdb output") {
			note = n
		}
	}
	if !strings.Contains(note, "lines not written") || !strings.Contains(note, "last error") {
		t.Errorf("notes %q", res.Snapshot.Scenario("builtin.Noop").Notes)
	}
}

func TestRunLiveBadSpecs(t *testing.T) {
	dir := t.TempDir()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"influx scheme", []string{"--out", "influxdb=udp://127.0.0.1:8089/k6"}, ExitUsage, "want http:// or https://"},
		{"influx without db", []string{"--out", "influxdb=http://127.0.0.1:8086"}, ExitUsage, "names no database"},
		{"influx v2 without bucket", []string{"--out", "influxdb=http://127.0.0.1:8086/api/v2/write?org=o"}, ExitUsage, "needs ?bucket="},
		{"influx credentials in query", []string{"--out", "influxdb=http://127.0.0.1:8086/k6?p=secret"}, ExitUsage, "STAMPEDE_INFLUX_TOKEN"},
		{"prometheus address", []string{"--prometheus", "127.0.0.1"}, ExitUsage, "want HOST:PORT"},
		{"prometheus port busy", []string{"--prometheus", busy.Addr().String()}, ExitUsage, "address already in use"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"run", "builtin.Noop", "-i", "10", "--quiet", "--out", filepath.Join(dir, strconv.Itoa(i))}, tc.args...)
			code, _, stderr := runMain(t, t.Context(), args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("stderr %q, want one line with %q", stderr, tc.want)
			}
			if strings.Contains(stderr, "secret") {
				t.Errorf("credentials in the message: %s", stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, strconv.Itoa(i))); err == nil {
				t.Errorf("a rejected command left its result directory")
			}
		})
	}
}

// BenchmarkLiveOutputsPerSecond is the work Prometheus and InfluxDB add to
// one second of one scenario at 100,000 ops/s: the aggregator's Observe
// calls plus one Prometheus scrape (1 Hz, pessimistic) and the InfluxDB
// write of that second. ns/op divided by 1e9 is the fraction of one core
// the outputs cost; the recording hot path itself is untouched.
func BenchmarkLiveOutputsPerSecond(b *testing.B) {
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer sink.Close()
	reg := metrics.NewRegistry()
	c := prom.New(reg, prom.Options{})
	gather := prom.NewRegistry(c)
	out, err := influx.New(influx.Config{URL: sink.URL + "/k6", Registry: reg, FlushInterval: time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	h := metric.NewHistogram()
	r := uint64(1)
	for range 100_000 {
		r = r*6364136223846793005 + 1442695040888963407
		_ = h.RecordValue(int64(200 + (r>>33)%5000))
	}
	p := &metrics.Point{Scenario: "go.Go1Step", Counts: map[string]int64{"iterations": 100_000, "requests": 100_000, "checks": 100_000},
		Errors: map[string]int64{"timeout": 3}, VUs: 100, Hist: h, RT: metric.StatsOf(h), Time: time.Now()}
	b.ReportAllocs()
	for b.Loop() {
		c.Observe(p)
		out.Observe(p)
		if _, err := gather.Gather(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if st := out.Close(); st.Dropped() != 0 {
		b.Logf("influx dropped %d lines (queue full under a tight loop)", st.Dropped())
	}
}

// TestRunLiveOutputsFailingTarget: a target that answers 500 to every
// other request; its errors reach Prometheus, InfluxDB and the report.
func TestRunLiveOutputsFailingTarget(t *testing.T) {
	var n sync.Mutex
	count := 0
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Lock()
		count++
		fail := count%2 == 0
		n.Unlock()
		if fail {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "ok")
	}))
	defer target.Close()
	sink := &influxSink{sums: map[string]int64{}}
	srv := httptest.NewServer(sink)
	defer srv.Close()
	port := freePort(t)
	dir := filepath.Join(t.TempDir(), "res")
	code, _, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", target.URL+"/", "-u", "2", "-d", "2s", "--no-csv", "--quiet",
		"--prometheus", "127.0.0.1:"+port, "--out", "influxdb="+srv.URL+"/k6", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Snapshot.Scenario("http.Request")
	errs := sc.Counters[metrics.Errors]
	if errs == 0 || len(sc.Errors) == 0 {
		t.Fatalf("no errors recorded: %+v", sc.Counters)
	}
	sink.mu.Lock()
	got := sink.sums["errors/http.Request"]
	var byMsg int64
	for k, v := range sink.sums {
		if strings.HasPrefix(k, "errors_by_message/") {
			byMsg += v
		}
	}
	sink.mu.Unlock()
	if got != errs || byMsg != errs {
		t.Errorf("InfluxDB errors %d, by message %d; the snapshot has %d", got, byMsg, errs)
	}
	p := reportPayload(t, filepath.Join(dir, resultdir.ReportFile))
	rs := p.Runs[0].Scenarios[0]
	if rs.Summary.Errors != errs || len(rs.Errors) == 0 || rs.Series == nil {
		t.Errorf("report: %+v", rs.Summary)
	}
}
