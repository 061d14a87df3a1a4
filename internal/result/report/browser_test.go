package report

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/testenv"
)

// chromium returns the browser for the report tests (testenv.Chromium).
func chromium(t testing.TB) string { return testenv.Chromium(t) }

// browser runs headless Chromium on a local file with the given extra
// flags and returns stdout and the console lines of stderr.
func browser(t testing.TB, bin, page string, extra ...string) (stdout string, console []string) {
	t.Helper()
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--hide-scrollbars", "--mute-audio",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0",
	}
	args = append(append(args, extra...), "file://"+page)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, tail(errb.String(), 2000))
	}
	for _, l := range strings.Split(errb.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return out.String(), console
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// artifactDir is where screenshots go: $STAMPEDE_ARTIFACTS, or the test's
// temporary directory.
func artifactDir(t testing.TB) string {
	if d := os.Getenv("STAMPEDE_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

var (
	bodyRe   = regexp.MustCompile(`<body([^>]*)>`)
	attrRe   = regexp.MustCompile(`data-([a-z-]+)="([^"]*)"`)
	figureRe = regexp.MustCompile(`<figure class="chart( empty)?"[^>]*>`)
)

// pageState is what the page wrote into the DOM.
type pageState struct {
	body     map[string]string
	rendered []int // data-rendered of every chart, in page order
	empty    int
}

func parseDOM(t testing.TB, dom string) pageState {
	t.Helper()
	m := bodyRe.FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no <body> in the DOM dump:\n%s", tail(dom, 1000))
	}
	st := pageState{body: map[string]string{}}
	for _, a := range attrRe.FindAllStringSubmatch(m[1], -1) {
		st.body[a[1]] = a[2]
	}
	if i := strings.Index(dom, `<script type="application/json"`); i >= 0 {
		dom = dom[:i] // the scripts' own text mentions figures
	}
	for _, f := range figureRe.FindAllStringSubmatch(dom, -1) {
		if f[1] != "" {
			st.empty++
		}
		r := attrRe.FindAllStringSubmatch(f[0], -1)
		n := -1
		for _, a := range r {
			if a[1] == "rendered" {
				n, _ = strconv.Atoi(a[2])
			}
		}
		st.rendered = append(st.rendered, n)
	}
	return st
}

// checkPage loads page in Chromium and checks that it rendered without
// errors, every chart with data, and saves a screenshot.
func checkPage(t *testing.T, bin, page string, wantCharts int, shot string) pageState {
	t.Helper()
	dom, console := browser(t, bin, page, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console output (the page logs nothing when healthy):\n%s", strings.Join(console, "\n"))
	}
	st := parseDOM(t, dom)
	if e := st.body["error"]; e != "" {
		t.Fatalf("the page reported an error: %s", e)
	}
	if st.body["ready"] != "1" {
		t.Fatalf("the page did not finish rendering: body %v", st.body)
	}
	if n, _ := strconv.Atoi(st.body["charts"]); n != len(st.rendered) || n < wantCharts {
		t.Errorf("%s charts counted, %d in the DOM, want ≥ %d", st.body["charts"], len(st.rendered), wantCharts)
	}
	for i, n := range st.rendered {
		if n <= 0 {
			t.Errorf("chart %d drew %d points", i+1, n)
		}
	}
	if st.empty > 0 {
		t.Errorf("%d empty charts", st.empty)
	}
	png := filepath.Join(artifactDir(t), shot)
	browser(t, bin, page, "--screenshot="+png, "--produce-window-size=1280,2400")
	if fi, err := os.Stat(png); err != nil || fi.Size() < 10_000 {
		t.Fatalf("no screenshot: %v", err)
	}
	t.Logf("screenshot: %s (render %s ms after %s ms from navigation)", png, st.body["render-ms"], st.body["ready-ms"])
	return st
}

func TestBrowser(t *testing.T) {
	bin := chromium(t)
	tests := []struct {
		name   string
		make   func(testing.TB, string) []*resultdir.Result
		pick   func([]*resultdir.Result) []*resultdir.Result
		charts int
	}{
		// 2 scenarios × (throughput, latency, distribution, VUs) + errors
		// of the writes + generator CPU and memory.
		{"one-run", twoRuns, func(r []*resultdir.Result) []*resultdir.Result { return r[1:] }, 11},
		{"two-runs-overlaid", twoRuns, nil, 11},
		// 4 sweep curves + 4 charts of the scenario.
		{"node-sweep", sweepRuns, nil, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			results := tc.make(t, filepath.Join(dir, "results"))
			if tc.pick != nil {
				results = tc.pick(results)
			}
			page := filepath.Join(dir, "report.html")
			if err := WriteFile(page, results, Options{MaxPoints: 20}); err != nil {
				t.Fatal(err)
			}
			checkPage(t, bin, page, tc.charts, "report-"+tc.name+".png")
		})
	}
}

// TestBrowserCatchesErrors makes sure the checks above would notice a
// broken page.
func TestBrowserCatchesErrors(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "broken.html")
	p, err := Build(twoRuns(t, filepath.Join(dir, "r")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.Runs[0].Scenarios = nil // the script trips over the missing list
	p.Scenarios = append(p.Scenarios, "ghost")
	var buf bytes.Buffer
	if err := Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	html := strings.Replace(buf.String(), `"use strict";`, `"use strict"; null.boom;`, 1)
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, console := browser(t, bin, page, "--dump-dom")
	st := parseDOM(t, dom)
	if st.body["error"] == "" && len(console) == 0 {
		t.Fatalf("a throwing script went unnoticed: body %v", st.body)
	}
}

// TestBrowserOptionsHumanDurations: the options table shows executor
// durations as 30s or 500ms, not options.json's nanoseconds.
func TestBrowserOptionsHumanDurations(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	results := twoRuns(t, filepath.Join(dir, "results"))
	page := filepath.Join(dir, "report.html")
	if err := WriteFile(page, results, Options{MaxPoints: 20}); err != nil {
		t.Fatal(err)
	}
	dom, _ := browser(t, bin, page, "--dump-dom")
	if !regexp.MustCompile(`"duration": "[0-9.]+(ms|s|m|h)`).MatchString(dom) {
		t.Errorf("no human duration in the options:\n%.3000s", dom[max(0, strings.Index(dom, `"scenarios"`)):])
	}
	if regexp.MustCompile(`"(duration|gracefulStop|timeUnit|warmup)": [0-9]{7,}`).MatchString(dom) {
		t.Error("the options show a duration in nanoseconds")
	}
}
