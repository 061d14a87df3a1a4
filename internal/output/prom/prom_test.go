package prom

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

// point builds a finished second with the given response times (µs).
func point(scenario string, sec int64, counts map[string]int64, errs map[string]int64, vus int64, rts ...int64) *metrics.Point {
	h := metric.NewHistogram()
	for _, v := range rts {
		if err := h.RecordValue(v); err != nil {
			panic(err)
		}
	}
	return &metrics.Point{Scenario: scenario, Sec: sec, Counts: counts, Errors: errs, VUs: vus, Hist: h, RT: metric.StatsOf(h)}
}

func newTestCollector() (*Collector, *metrics.Registry) {
	reg := metrics.NewRegistry()
	reg.MustAdd(metrics.Def{Name: "retries", Kind: metrics.KindCounter})
	reg.MustAdd(metrics.Def{Name: "acked", Kind: metrics.KindRate})
	return New(reg, Options{Buckets: []float64{0.001, 0.01, 0.1}}), reg
}

func TestCollectorCounters(t *testing.T) {
	c, _ := newTestCollector()
	c.Declare("idle")
	c.Observe(point("go.Go1Step", 0, map[string]int64{"iterations": 3, "requests": 3, "errors": 1, "checks": 2, "checks_total": 3, "retries": 4, "acked": 5, "acked_total": 6},
		map[string]int64{"E_TIMEOUT": 1}, 10, 500, 2000, 50_000))
	c.Observe(point("go.Go1Step", 1, map[string]int64{"iterations": 2, "requests": 2, "errors": 2, "dropped_iterations": 7},
		map[string]int64{"E_TIMEOUT": 1}, 12, 700, 900))

	want := `
# HELP stampede_checks_total Checks by result (pass or fail).
# TYPE stampede_checks_total counter
stampede_checks_total{result="fail",scenario="go.Go1Step"} 1
stampede_checks_total{result="pass",scenario="go.Go1Step"} 2
stampede_checks_total{result="fail",scenario="idle"} 0
stampede_checks_total{result="pass",scenario="idle"} 0
# HELP stampede_workload_total Workload counters by metric name.
# TYPE stampede_workload_total counter
stampede_workload_total{metric="retries",scenario="go.Go1Step"} 4
# HELP stampede_dropped_iterations_total Arrival-rate iterations that found no free VU.
# TYPE stampede_dropped_iterations_total counter
stampede_dropped_iterations_total{scenario="go.Go1Step"} 7
stampede_dropped_iterations_total{scenario="idle"} 0
# HELP stampede_errors_total Failed operations and iterations by error message.
# TYPE stampede_errors_total counter
stampede_errors_total{error="E_TIMEOUT",scenario="go.Go1Step"} 2
stampede_errors_total{error="unspecified",scenario="go.Go1Step"} 1
# HELP stampede_iterations_total Completed iterations.
# TYPE stampede_iterations_total counter
stampede_iterations_total{scenario="go.Go1Step"} 5
stampede_iterations_total{scenario="idle"} 0
# HELP stampede_workload_rate_total Workload rates by metric name and result (pass or fail).
# TYPE stampede_workload_rate_total counter
stampede_workload_rate_total{metric="acked",result="fail",scenario="go.Go1Step"} 1
stampede_workload_rate_total{metric="acked",result="pass",scenario="go.Go1Step"} 5
# HELP stampede_requests_total Operations sent to the target.
# TYPE stampede_requests_total counter
stampede_requests_total{scenario="go.Go1Step"} 5
stampede_requests_total{scenario="idle"} 0
# HELP stampede_vus Active virtual users.
# TYPE stampede_vus gauge
stampede_vus{scenario="go.Go1Step"} 12
stampede_vus{scenario="idle"} 0
# HELP stampede_response_time_seconds Client-measured response time (from the intended start under arrival-rate executors).
# TYPE stampede_response_time_seconds histogram
stampede_response_time_seconds_bucket{scenario="go.Go1Step",le="0.001"} 3
stampede_response_time_seconds_bucket{scenario="go.Go1Step",le="0.01"} 4
stampede_response_time_seconds_bucket{scenario="go.Go1Step",le="0.1"} 5
stampede_response_time_seconds_bucket{scenario="go.Go1Step",le="+Inf"} 5
stampede_response_time_seconds_sum{scenario="go.Go1Step"} 0.0541
stampede_response_time_seconds_count{scenario="go.Go1Step"} 5
stampede_response_time_seconds_bucket{scenario="idle",le="0.001"} 0
stampede_response_time_seconds_bucket{scenario="idle",le="0.01"} 0
stampede_response_time_seconds_bucket{scenario="idle",le="0.1"} 0
stampede_response_time_seconds_bucket{scenario="idle",le="+Inf"} 0
stampede_response_time_seconds_sum{scenario="idle"} 0
stampede_response_time_seconds_count{scenario="idle"} 0
`
	// The sum comes from HDR means (equivalent values): compare it apart.
	names := []string{"stampede_checks_total", "stampede_workload_total", "stampede_dropped_iterations_total",
		"stampede_errors_total", "stampede_iterations_total", "stampede_workload_rate_total", "stampede_requests_total", "stampede_vus"}
	if err := testutil.CollectAndCompare(c, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}
	mfs := gather(t, c)
	h := findHist(t, mfs, "stampede_response_time_seconds", "go.Go1Step")
	if got := h.GetSampleSum(); math.Abs(got-0.0541) > 0.0541*0.002 {
		t.Errorf("sum = %v, want ≈0.0541", got)
	}
	var cums []uint64
	for _, b := range h.GetBucket() {
		cums = append(cums, b.GetCumulativeCount())
	}
	if fmt.Sprint(cums) != "[3 4 5]" || h.GetSampleCount() != 5 {
		t.Errorf("classic buckets %v count %d", cums, h.GetSampleCount())
	}
	if n := testutil.CollectAndCount(c, "stampede_generator_cpu_ratio"); n != 0 {
		t.Errorf("generator gauge without a generator: %d", n)
	}
}

func gather(t *testing.T, c prometheus.Collector) []*dto.MetricFamily {
	t.Helper()
	r := prometheus.NewPedanticRegistry()
	r.MustRegister(c)
	mfs, err := r.Gather()
	if err != nil {
		t.Fatal(err)
	}
	return mfs
}

func findHist(t *testing.T, mfs []*dto.MetricFamily, name, scenario string) *dto.Histogram {
	t.Helper()
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "scenario" && l.GetValue() == scenario {
					return m.GetHistogram()
				}
			}
		}
	}
	t.Fatalf("no %s{scenario=%q}", name, scenario)
	return nil
}

func TestNativeHistogram(t *testing.T) {
	c := New(nil, Options{})
	// 0µs (sub-microsecond) goes to the zero bucket; the others to the
	// buckets of their HDR highest equivalent values (1ms and 1.5ms are
	// exact, 1s is recorded with a resolution of 512µs).
	vals := []int64{0, 1000, 1000, 1500, 1_000_000}
	c.Observe(point("s", 0, map[string]int64{"requests": 5}, nil, 1, vals...))
	h := findHist(t, gather(t, c), "stampede_response_time_seconds", "s")
	if h.GetSchema() != 3 || h.GetZeroCount() != 1 || h.GetZeroThreshold() >= 1e-6 {
		t.Fatalf("schema %d zero %d threshold %g", h.GetSchema(), h.GetZeroCount(), h.GetZeroThreshold())
	}
	// Expand spans and deltas back into index → count.
	got := map[int]int64{}
	idx, cnt := 0, int64(0)
	d := 0
	for _, sp := range h.GetPositiveSpan() {
		idx += int(sp.GetOffset())
		for range sp.GetLength() {
			cnt += h.GetPositiveDelta()[d]
			d++
			if cnt != 0 {
				got[idx] = cnt
			}
			idx++
		}
	}
	want := map[int]int64{}
	for _, v := range vals[1:] {
		ref := metric.NewHistogram()
		_ = ref.RecordValue(v)
		want[nativeIdxRef(float64(ref.Max())/1e6, 3)]++
	}
	if len(want) != 3 {
		t.Fatalf("test values should fill 3 buckets: %v", want)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("native buckets %v, want %v", got, want)
	}
	var total int64
	for _, n := range got {
		total += n
	}
	if uint64(total)+h.GetZeroCount() != h.GetSampleCount() {
		t.Errorf("bucket total %d + zero %d != count %d", total, h.GetZeroCount(), h.GetSampleCount())
	}
}

// nativeIdxRef computes the native index the slow way: ceil(log2(v)·2^schema).
func nativeIdxRef(v float64, schema int) int {
	return int(math.Ceil(math.Log2(v) * float64(int(1)<<schema)))
}

func TestNativeIndex(t *testing.T) {
	for _, schema := range []int32{-2, 0, 1, 3, 8} {
		c := New(nil, Options{Schema: schema})
		if schema == 0 {
			c.opts.Schema = 0 // New maps 0 to the default; test schema 0 itself
			c.bounds = nativeBounds(0)
		}
		for _, v := range []float64{1e-6, 3e-6, 0.000123, 0.001, 0.0123, 0.5, 0.75, 1, 1.5, 2, 3, 100} {
			var want int
			if schema >= 0 {
				want = nativeIdxRef(v, int(schema))
			} else {
				want = int(math.Ceil(math.Log2(v) / float64(int(1)<<-schema)))
			}
			if exact := math.Log2(v); exact == math.Trunc(exact) && schema >= 0 {
				want = int(exact) << schema // powers of two are upper bounds
			}
			if got := c.nativeIndex(v); got != want {
				t.Errorf("schema %d: index(%g) = %d, want %d", schema, v, got, want)
			}
		}
	}
}

func TestErrorCardinalityCap(t *testing.T) {
	c := New(nil, Options{MaxErrorMessages: 3})
	errs := map[string]int64{}
	for i := range 10 {
		errs[fmt.Sprintf("E%02d", i)] = 1
	}
	long := strings.Repeat("é", 200)
	errs[long] = 1
	c.Observe(point("s", 0, map[string]int64{"errors": 11}, errs, 1))
	mfs := gather(t, c)
	var labels []string
	var total float64
	for _, mf := range mfs {
		if mf.GetName() != "stampede_errors_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "error" {
					labels = append(labels, l.GetValue())
					if len(l.GetValue()) > maxLabelLen+len("…") {
						t.Errorf("label of %d bytes", len(l.GetValue()))
					}
				}
			}
			total += m.GetCounter().GetValue()
		}
	}
	if len(labels) != 4 || !contains(labels, "other") || total != 11 {
		t.Errorf("labels %d %v total %v: want 3 messages + other, total 11", len(labels), labels, total)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestGeneratorGauges(t *testing.T) {
	c := New(nil, Options{Generator: func() (float64, int64, bool) { return 0.42, 1 << 20, true }})
	want := `
# HELP stampede_generator_cpu_ratio CPU use of the stampede process over the last second, as a fraction of the cores it may use.
# TYPE stampede_generator_cpu_ratio gauge
stampede_generator_cpu_ratio 0.42
`
	if err := testutil.CollectAndCompare(c, strings.NewReader(want), "stampede_generator_cpu_ratio"); err != nil {
		t.Error(err)
	}
}

func TestLint(t *testing.T) {
	c, _ := newTestCollector()
	c.Observe(point("s", 0, map[string]int64{"requests": 1, "retries": 1, "acked": 1}, map[string]int64{"x": 1}, 1, 100))
	problems, err := testutil.CollectAndLint(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}
}

func TestResolveAddr(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{in: "9464", want: "127.0.0.1:9464"},
		{in: ":9464", want: "127.0.0.1:9464"},
		{in: "127.0.0.1:9464", want: "127.0.0.1:9464"},
		{in: "0.0.0.0:9464", want: "0.0.0.0:9464"},
		{in: "[::1]:9464", want: "[::1]:9464"},
		{in: "localhost:0", want: "localhost:0"},
		{in: "", bad: true},
		{in: "127.0.0.1", bad: true},
		{in: "127.0.0.1:http", bad: true},
		{in: "http://127.0.0.1:9464", bad: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ResolveAddr(tc.in)
			if tc.bad {
				if err == nil {
					t.Fatalf("ResolveAddr(%q) = %q, want an error", tc.in, got)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("multi-line error %q", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ResolveAddr(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestServeLoopbackByDefault(t *testing.T) {
	c, _ := newTestCollector()
	c.Observe(point("go.Go1Step", 0, map[string]int64{"iterations": 3, "requests": 3}, nil, 2, 100, 200, 300))
	s, err := Serve(":0", NewRegistry(c))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.Addr(), "127.0.0.1:") {
		t.Fatalf("bound to %s, want loopback", s.Addr())
	}
	resp, err := http.Get("http://" + s.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`stampede_requests_total{scenario="go.Go1Step"} 3`,
		`stampede_response_time_seconds_count{scenario="go.Go1Step"} 3`,
		`process_cpu_seconds_total`,
		`go_goroutines`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("scrape lacks %q", want)
		}
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	// A busy port fails at once.
	s2, err := Serve("127.0.0.1:0", NewRegistry(New(nil, Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s3, err := Serve(s2.Addr(), prometheus.NewRegistry()); err == nil {
		s3.Close()
		t.Fatal("second server on a busy port")
	}
}

func BenchmarkObserve(b *testing.B) {
	c := New(metrics.NewRegistry(), Options{})
	h := metric.NewHistogram()
	for i := range 100_000 {
		_ = h.RecordValue(int64(200 + (i*7919)%20_000))
	}
	p := &metrics.Point{Scenario: "s", Counts: map[string]int64{"iterations": 100_000, "requests": 100_000}, VUs: 50, Hist: h, RT: metric.StatsOf(h), Time: time.Now()}
	b.ReportAllocs()
	for b.Loop() {
		c.Observe(p)
	}
}

func BenchmarkCollect(b *testing.B) {
	c := New(metrics.NewRegistry(), Options{})
	h := metric.NewHistogram()
	for i := range 100_000 {
		_ = h.RecordValue(int64(200 + (i*7919)%20_000))
	}
	for i := range 5 {
		c.Observe(&metrics.Point{Scenario: fmt.Sprint("s", i), Counts: map[string]int64{"requests": 1}, Hist: h, RT: metric.StatsOf(h)})
	}
	r := prometheus.NewRegistry()
	r.MustRegister(c)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Gather(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGrafanaDashboard checks that the dashboard in deploy/grafana only
// queries metrics this collector exposes.
func TestGrafanaDashboard(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "deploy", "grafana", "stampede-prometheus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	ch := make(chan *prometheus.Desc, 32)
	New(nil, Options{}).Describe(ch)
	close(ch)
	for d := range ch {
		m := regexp.MustCompile(`fqName: "([^"]+)"`).FindStringSubmatch(d.String())
		known[m[1]] = true
	}
	name := regexp.MustCompile(`stampede_[a-z_]+`)
	n := 0
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			for _, m := range name.FindAllString(tg.Expr, -1) {
				base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(m, "_bucket"), "_sum"), "_count")
				if !known[base] {
					t.Errorf("panel %q queries %s, which stampede does not expose", p.Title, m)
				}
				n++
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d stampede metrics referenced", n)
	}
}
