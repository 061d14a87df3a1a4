package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/testenv"
)

// headless runs Chromium on url with the extra flags and returns stdout
// (safe to call from several goroutines).
func headless(t *testing.T, bin, url string, extra ...string) (string, error) {
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
		"--user-data-dir=" + t.TempDir(),
	}, extra...)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("chromium %s: %v\n%s", url, err, errb.String())
	}
	if strings.Contains(errb.String(), "Page load failed") {
		return "", fmt.Errorf("chromium %s: %s", url, errb.String())
	}
	return out.String(), nil
}

// drawnChart is one chart of the page as the script drew it.
type drawnChart struct {
	title  string
	series []struct {
		Label string     `json:"label"`
		Ys    []*float64 `json:"ys"`
	}
}

var (
	figRe     = regexp.MustCompile(`<figure class="chart"[^>]*data-values="([^"]*)"[^>]*>\s*<figcaption>([^<]*)</figcaption>`)
	dataBody  = regexp.MustCompile(`<body[^>]*data-ready="1"`)
	updatesRe = regexp.MustCompile(`<body[^>]*data-updates="(\d+)"`)
)

func parseCharts(t *testing.T, dom string) map[string]drawnChart {
	t.Helper()
	out := map[string]drawnChart{}
	for _, m := range figRe.FindAllStringSubmatch(dom, -1) {
		c := drawnChart{title: html.UnescapeString(m[2])}
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &c.series); err != nil {
			t.Fatalf("chart %q: %v", c.title, err)
		}
		out[c.title] = c
	}
	return out
}

func (c drawnChart) ys(t *testing.T, label string) []*float64 {
	t.Helper()
	for _, s := range c.series {
		if s.Label == label {
			return s.Ys
		}
	}
	t.Fatalf("chart %q has no series %q", c.title, label)
	return nil
}

// TestWebDashboardLive runs an HTTP test with --web-dashboard and
// --monitor, loads the page in headless Chromium while the run goes, and
// checks that every chart has data and that the values drawn are those
// of series.jsonl for the same seconds; the export is report.html.
func TestWebDashboardLive(t *testing.T) {
	bin := testenv.Chromium(t)
	var n atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// 20 ms a request at 100/s: about two VUs busy at any time, so
		// the vus gauge (busy VUs, as k6 counts them) is drawn within the
		// first seconds; a target answering in microseconds leaves it at 0
		// in most samples.
		time.Sleep(20 * time.Millisecond)
		if n.Add(1)%10 == 0 {
			http.Error(w, "every tenth fails", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, strings.Repeat("x", 200))
	}))
	defer target.Close()
	port := freePort(t)
	tmp := t.TempDir()
	dir, export := filepath.Join(tmp, "res"), filepath.Join(tmp, "dashboard.html")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, _, stderr := runMain(t, ctx, "run", "http.Request", "--target", target.URL+"/", "--rate", "100", "-u", "4", "-d", "25s",
			"--no-csv", "--out", dir, "--monitor", "pid="+strconv.Itoa(os.Getpid()),
			"--web-dashboard", "--web-dashboard-port", port, "--web-dashboard-export", export)
		done <- result{code, stderr}
	}()
	url := "http://127.0.0.1:" + port + "/"
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no dashboard at %s: %v", url, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(6 * time.Second) // a few seconds of data (the page must draw at least 3)
	// While the run goes: a screenshot and the DOM once the script drew
	// the page's embedded data (no virtual time: Chromium dumps at load);
	// then a page that follows the events until the run ends (virtual
	// time waits for the open stream).
	png := filepath.Join(tmp, "dashboard.png")
	if d := os.Getenv("STAMPEDE_ARTIFACTS"); d != "" && os.MkdirAll(d, 0o755) == nil {
		png = filepath.Join(d, "webdash-live.png")
	}
	type page struct {
		dom string
		err error
	}
	shot, mid, follow := make(chan error, 1), make(chan page, 1), make(chan page, 1)
	go func() {
		_, err := headless(t, bin, url, "--screenshot="+png, "--window-size=1280,2400")
		shot <- err
	}()
	go func() {
		dom, err := headless(t, bin, url, "--dump-dom")
		mid <- page{dom, err}
	}()
	go func() {
		dom, err := headless(t, bin, url, "--dump-dom", "--virtual-time-budget=60000")
		follow <- page{dom, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-ctx.Done():
		t.Fatal("the run did not end")
	}
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if err := <-shot; err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(png); err != nil || fi.Size() < 10_000 {
		t.Errorf("no screenshot: %v", err)
	}
	var pts []*metrics.Point
	if err := resultdir.ScanSeries(dir, func(p *metrics.Point) error { c := *p; pts = append(pts, &c); return nil }); err != nil {
		t.Fatal(err)
	}
	m := <-mid
	if m.err != nil {
		t.Fatal(m.err)
	}
	if n := checkDashboardDOM(t, "during the run", m.dom, pts); n >= 25 {
		t.Errorf("the page loaded during the run drew %d seconds: all of them", n)
	}
	f := <-follow
	if f.err != nil {
		t.Fatal(f.err)
	}
	if !updatesRe.MatchString(f.dom) || !strings.Contains(f.dom, `data-ended="1"`) {
		t.Error("the page applied no server-sent update, or never heard the end")
	}
	if n := checkDashboardDOM(t, "followed to the end", f.dom, pts); n < 24 {
		t.Errorf("the page that followed the run drew %d seconds", n)
	}

	// The export is the run's report.html, byte for byte.
	got, err1 := os.ReadFile(export)
	want, err2 := os.ReadFile(filepath.Join(dir, resultdir.ReportFile))
	if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
		t.Errorf("export differs from report.html (%v, %v; %d and %d bytes)", err1, err2, len(got), len(want))
	}
	if !strings.Contains(res.stderr, "web dashboard: "+url) {
		t.Errorf("the dashboard was not announced: %s", res.stderr)
	}
}

// checkDashboardDOM checks the charts of a dashboard page's DOM: each
// has data, and the values drawn are those of series.jsonl (pts) for the
// same seconds. It returns how many seconds the throughput chart drew.
func checkDashboardDOM(t *testing.T, when, dom string, pts []*metrics.Point) int {
	t.Helper()
	if !dataBody.MatchString(dom) || strings.Contains(dom, `data-error=`) {
		t.Fatalf("%s: the page did not render:\n%.2000s", when, dom)
	}
	charts := parseCharts(t, dom)
	for _, title := range []string{"Throughput", "Response time over time", "Virtual users", "Errors over time",
		"Transfer (data_received solid, data_sent dashed)", "HTTP request phases (mean)", "Target CPU (% of its cores, measured)"} {
		c, ok := charts[title]
		if !ok {
			t.Errorf("%s: no chart %q (charts: %v)", when, title, keys(charts))
			continue
		}
		points := 0
		for _, s := range c.series {
			for _, y := range s.Ys {
				if y != nil {
					points++
				}
			}
		}
		if points == 0 {
			t.Errorf("%s: chart %q is empty", when, title)
		}
	}

	// The values drawn are series.jsonl's, second by second.
	ms := func(us float64) float64 { return math.Round(us) / 1e3 }
	checks := []struct {
		chart, label string
		want         func(p *metrics.Point) float64
	}{
		{"Throughput", "requests/s", func(p *metrics.Point) float64 { return float64(p.Counts[metrics.Requests]) }},
		{"Response time over time", "p95", func(p *metrics.Point) float64 { return orNaN(p.RT.N, ms(float64(p.RT.P95))) }},
		{"Response time over time", "max", func(p *metrics.Point) float64 { return orNaN(p.Sec+1, ms(float64(p.RT.Max))) }},
		{"Errors over time", "all errors", func(p *metrics.Point) float64 { return float64(p.Counts[metrics.Errors]) }},
		{"Virtual users", "VUs", func(p *metrics.Point) float64 { return float64(p.VUs) }},
		{"Transfer (data_received solid, data_sent dashed)", "data_received", func(p *metrics.Point) float64 { return float64(p.Counts[metrics.DataReceived]) }},
		{"HTTP request phases (mean)", "waiting", func(p *metrics.Point) float64 {
			st := p.TrendStats[metrics.HTTPReqWaiting]
			return orNaN(st.N, ms(st.Mean))
		}},
	}
	// series.jsonl has no line for a second without any sample: the page
	// draws zero counts (and no latency) there.
	bySec := map[int64]*metrics.Point{}
	for _, p := range pts {
		bySec[p.Sec] = p
	}
	last := pts[len(pts)-1].Sec
	for _, c := range checks {
		ys := charts[c.chart].ys(t, c.label)
		if len(ys) < 3 || pts[0].Sec+int64(len(ys))-1 > last {
			t.Errorf("%s: %s %s: %d seconds drawn, series.jsonl has seconds %d to %d", when, c.chart, c.label, len(ys), pts[0].Sec, last)
			continue
		}
		for i, y := range ys {
			p := bySec[pts[0].Sec+int64(i)]
			if p == nil {
				p = &metrics.Point{Sec: -1} // no line
			}
			want := c.want(p)
			if math.IsNaN(want) { // a second without a response: drawn as a gap
				if y != nil {
					t.Errorf("%s: %s %s second %d: drawn %v for a second without responses", when, c.chart, c.label, i, *y)
				}
				continue
			}
			if y == nil || math.Abs(*y-want) > 1e-9*math.Max(1, want) {
				t.Errorf("%s: %s %s second %d: drawn %v, series.jsonl %v", when, c.chart, c.label, i, deref(y), want)
			}
		}
	}

	return len(charts["Throughput"].ys(t, "requests/s"))
}

// orNaN is v, or NaN when no sample (n = 0) made it.
func orNaN(n int64, v float64) float64 {
	if n == 0 {
		return math.NaN()
	}
	return v
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Bad dashboard settings are one line and exit 2 before the run: a port
// in use, an export that exists, a bad period or port, from the flags or
// from k6's variables.
func TestWebDashboardBadInput(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	busy := strconv.Itoa(held.Addr().(*net.TCPAddr).Port)
	dir := t.TempDir()
	exists := filepath.Join(dir, "old.html")
	if err := os.WriteFile(exists, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"port in use", nil, []string{"--web-dashboard", "--web-dashboard-port", busy}, "address already in use"},
		{"port in use from K6_ variables", map[string]string{"K6_WEB_DASHBOARD": "true", "K6_WEB_DASHBOARD_PORT": busy}, nil, "address already in use"},
		{"export exists", nil, []string{"--web-dashboard-export", exists}, "the file exists"},
		{"export exists from K6_WEB_DASHBOARD_EXPORT", map[string]string{"K6_WEB_DASHBOARD_EXPORT": exists}, nil, "the file exists"},
		{"bad period", nil, []string{"--web-dashboard", "--web-dashboard-period", "1ms"}, "at least 100ms"},
		{"bad K6_WEB_DASHBOARD", map[string]string{"K6_WEB_DASHBOARD": "yes please"}, nil, "K6_WEB_DASHBOARD="},
		{"bad port", nil, []string{"--web-dashboard", "--web-dashboard-port", "70000"}, "not a port"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			out := filepath.Join(t.TempDir(), "res")
			args := append([]string{"run", "builtin.Noop", "-d", "1s", "--no-csv", "--out", out}, tc.args...)
			code, _, stderr := runMain(t, t.Context(), args...)
			if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want 2 and one line with %q", code, stderr, tc.want)
			}
			if _, err := os.Stat(filepath.Join(out, resultdir.SnapshotFile)); err == nil {
				t.Error("the run ran")
			}
		})
	}
}

// K6_WEB_DASHBOARD=true serves the page and Ctrl+C ends the run and the
// server within 2 s.
func TestWebDashboardInterrupt(t *testing.T) {
	port := freePort(t)
	t.Setenv("K6_WEB_DASHBOARD", "true")
	t.Setenv("K6_WEB_DASHBOARD_PORT", port)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		code, _, _ := runMain(t, ctx, "run", "builtin.Noop", "--rate", "1000", "-d", "1m", "--no-csv", "--quiet", "--out", filepath.Join(t.TempDir(), "res"))
		done <- code
	}()
	url := "http://127.0.0.1:" + port + "/events"
	deadline := time.Now().Add(30 * time.Second)
	var resp *http.Response
	for {
		r, err := http.Get(url)
		if err == nil && r.StatusCode == 200 {
			resp = r
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no dashboard: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	defer resp.Body.Close() // a client that stays connected
	time.Sleep(time.Second)
	t0 := time.Now()
	cancel()
	select {
	case code := <-done:
		if code != 130 {
			t.Errorf("exit %d, want 130", code)
		}
		if el := time.Since(t0); el > 2*time.Second {
			t.Errorf("stopped after %v", el)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not stop")
	}
	if ln, err := net.Listen("tcp", "127.0.0.1:"+port); err != nil {
		t.Errorf("dashboard port still held: %v", err)
	} else {
		ln.Close()
	}
}
