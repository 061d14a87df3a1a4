package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// runMain runs the CLI in-process.
func runMain(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("scenarios:\n  builtin.Noop: {executor: constant-vus, vus: -1, duration: 1s}\n"), 0o644)
	unknownKey := filepath.Join(dir, "unknown.yaml")
	os.WriteFile(unknownKey, []byte("scenarioz: {}\n"), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown scenario", []string{"run", "go.Go9Step"}, `unknown scenario "go.Go9Step"`},
		{"bad duration", []string{"run", "builtin.Noop", "-d", "ten"}, `invalid argument "ten"`},
		{"negative vus", []string{"run", "builtin.Noop", "-u", "-3"}, "vus ≥ 1"},
		{"bad stage", []string{"run", "builtin.Noop", "-s", "30s"}, "want DURATION:TARGET"},
		{"bad stage target", []string{"run", "builtin.Noop", "-s", "30s:many"}, "is not a count"},
		{"unknown executor", []string{"run", "builtin.Noop", "--executor", "warp"}, `unknown executor "warp"`},
		{"stage with constant executor", []string{"run", "builtin.Noop", "--executor", "constant-vus", "-s", "1s:2"}, "--stage only applies"},
		{"per-vu-iterations without -i", []string{"run", "builtin.Noop", "--executor", "per-vu-iterations"}, "needs -i/--iterations"},
		{"unknown target scheme", []string{"run", "http.Request", "--target", "gopher://x"}, `unknown target scheme "gopher"`},
		{"target without scheme", []string{"run", "http.Request", "--target", "localhost"}, "bad target URL"},
		{"missing config", []string{"run", "--config", filepath.Join(dir, "nope.yaml")}, "config:"},
		{"invalid config scenario", []string{"run", "--config", bad}, "config scenario builtin.Noop"},
		{"unknown config key", []string{"run", "--config", unknownKey}, "field scenarioz not found"},
		{"unknown flag", []string{"run", "--vuz", "3"}, "unknown flag: --vuz"},
		{"unknown output", []string{"run", "builtin.Noop", "--out", "kafka=x"}, `unknown output "kafka"`},
		{"repeat zero", []string{"run", "builtin.Noop", "--repeat", "0"}, "--repeat must be ≥ 1"},
		{"bad env var", []string{"run", "builtin.Noop"}, "STAMPEDE_VUS"},
		{"http without target", []string{"run", "http.Request", "-d", "1s", "--out", filepath.Join(dir, "h")}, "needs --target"},
		{"http target unreachable", []string{"run", "http.Request", "-d", "1s", "--target", "http://127.0.0.1:1/", "--out", filepath.Join(dir, "u")}, "unreachable"},
		{"unknown command", []string{"rum"}, `unknown command "rum"`},
		{"bad profile spec", []string{"run", "builtin.Noop", "--profile", "bogus"}, "bad profile spec"},
		{"missing scenario file", []string{"run", "custom.X", "--scenario-file", filepath.Join(dir, "nope.yaml")}, "scenario file: open"},
		{"broken scenario file", []string{"run", "custom.X", "--scenario-file", bad}, "scenario file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "bad env var" {
				t.Setenv("STAMPEDE_VUS", "lots")
			}
			code, _, stderr := runMain(t, t.Context(), tc.args...)
			if code != ExitUsage {
				t.Errorf("exit code %d, want 2; stderr: %s", code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q does not contain %q", stderr, tc.want)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n"); lines != 0 {
				t.Errorf("want one line, got:\n%s", stderr)
			}
			if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
				t.Errorf("stack trace in stderr: %s", stderr)
			}
		})
	}
}

func TestRunWritesResultDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "res")
	code, _, stderr := runMain(t, t.Context(), "run", "builtin.Noop", "-u", "4", "-i", "1000", "--out", dir, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Snapshot.Scenario("builtin.Noop")
	if sc == nil || sc.Counters[metrics.Iterations] != 1000 || sc.Counters[metrics.Requests] != 1000 {
		t.Fatalf("snapshot = %+v", sc)
	}
	if res.Options.Scenarios[0].Config.Executor != "shared-iterations" {
		t.Errorf("options = %+v", res.Options)
	}
	if res.Env.GoVersion == "" || res.Env.Threads == 0 {
		t.Errorf("env = %+v", res.Env)
	}
	var n int64
	if err := resultdir.ReadSeries(dir, func(p *metrics.Point) error { n += p.Counts[metrics.Iterations]; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 1000 {
		t.Errorf("series iterations = %d, want 1000", n)
	}
	// The same directory is refused for a second run.
	if code, _, stderr := runMain(t, t.Context(), "run", "builtin.Noop", "-i", "10", "--out", dir, "--quiet"); code != ExitUsage || !strings.Contains(stderr, "already holds a run") {
		t.Errorf("rerun into the same dir: exit %d %s", code, stderr)
	}
}

func TestRunConfigFileAndEnv(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte(`scenarios:
  builtin.Noop:
    executor: per-vu-iterations
    vus: 3
    iterations: 7
  builtin.Sleep:
    executor: shared-iterations
    vus: 2
    iterations: 4
options:
  sleep: 1ms
`), 0o644)
	out := filepath.Join(dir, "res")
	code, _, stderr := runMain(t, t.Context(), "run", "--config", cfg, "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, err := resultdir.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Snapshot.Scenario("builtin.Noop").Counters[metrics.Iterations]; got != 21 {
		t.Errorf("noop iterations = %d, want 21", got)
	}
	if got := res.Snapshot.Scenario("builtin.Sleep").Counters[metrics.Iterations]; got != 4 {
		t.Errorf("sleep iterations = %d, want 4", got)
	}
	// Flags override the file: -i applies to both scenarios.
	t.Setenv("STAMPEDE_VUS", "2")
	out2 := filepath.Join(dir, "res2")
	if code, _, stderr := runMain(t, t.Context(), "run", "--config", cfg, "-i", "5", "--out", out2, "--quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(out2, resultdir.OptionsFile))
	var opts resultdir.Options
	json.Unmarshal(b, &opts)
	for _, s := range opts.Scenarios {
		if s.Config.Iterations != 5 || s.Config.VUs != 2 {
			t.Errorf("%s config = %+v, want 5 iterations and 2 VUs from the flag and env", s.Name, s.Config)
		}
	}
}

// A target that dies during the run is counted, not fatal: the run goes on,
// errors are grouped by message, and the exit code is 0.
func TestTargetDiesMidRun(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	time.AfterFunc(300*time.Millisecond, func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	dir := filepath.Join(t.TempDir(), "res")
	code, stdout, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "-u", "4", "-d", "1s", "--out", dir, "--no-report", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Snapshot.Scenarios[0]
	if sc.Counters[metrics.Errors] == 0 || sc.Counters[metrics.Requests] <= sc.Counters[metrics.Errors] {
		t.Fatalf("requests %d, errors %d: want successes then errors", sc.Counters[metrics.Requests], sc.Counters[metrics.Errors])
	}
	if !strings.Contains(stdout, "connection refused") {
		t.Errorf("summary lacks the error breakdown:\n%s", stdout)
	}
}

// A run that fails before measuring anything leaves no empty result
// directory behind.
func TestFailedRunLeavesNoEmptyDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "res")
	code, _, _ := runMain(t, t.Context(), "run", "http.Request", "--target", "http://127.0.0.1:1/", "-d", "1s", "--out", dir)
	if code != ExitUsage {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("result dir left behind: %v", err)
	}
}

func TestRunHelpGroupsFlags(t *testing.T) {
	code, stdout, _ := runMain(t, t.Context(), "run", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"Load (k6 executors):", "Results and outputs:", "Workload: graph:", "Workload: kafka:", "--kafka-profile", "--batch-size", "STAMPEDE_<FLAG>"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	if strings.Contains(stdout, "Other:") {
		t.Errorf("a flag is in no section:\n%s", stdout[strings.Index(stdout, "Other:"):])
	}
}

// --summary-export writes k6's JSON; --json prints it instead of the
// console; --concurrent runs the scenarios at the same time.
func TestRunJSONOutputsAndConcurrent(t *testing.T) {
	dir := t.TempDir()
	export := filepath.Join(dir, "export.json")
	code, stdout, stderr := runMain(t, t.Context(), "run", "builtin.Noop", "builtin.Sleep", "--sleep", "50ms", "--concurrent",
		"-u", "2", "-d", "600ms", "--out", filepath.Join(dir, "res"), "--summary-export", export, "--json", "--no-report")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var printed, exported struct {
		RootGroup map[string]any            `json:"root_group"`
		Metrics   map[string]map[string]any `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(stdout), &printed); err != nil {
		t.Fatalf("--json stdout is not JSON: %v\n%s", err, stdout)
	}
	b, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &exported); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"iterations", "iterations{scenario:builtin.Noop}", "iterations{scenario:builtin.Sleep}", "responseTime"} {
		if exported.Metrics[m] == nil || printed.Metrics[m] == nil {
			t.Errorf("metric %s missing", m)
		}
	}
	if _, ok := exported.Metrics["responseTime"]["p(95)"]; !ok {
		t.Errorf("responseTime lacks p(95): %v", exported.Metrics["responseTime"])
	}
	res, err := resultdir.Load(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatal(err)
	}
	a, s := res.Snapshot.Scenario("builtin.Noop"), res.Snapshot.Scenario("builtin.Sleep")
	if a.Start.After(s.End) || s.Start.After(a.End) {
		t.Errorf("--concurrent scenarios did not overlap: %v–%v and %v–%v", a.Start, a.End, s.Start, s.End)
	}
}

// --expect-status is a named check: it passes only on that status, and the
// k6 summary lists it under root_group.checks. A response with another
// status is a failed request: when every one is, the run exits 1.
func TestExpectStatusCheck(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	for _, tc := range []struct {
		status        string
		passes, fails bool
		code          int
	}{{"200", true, false, 0}, {"201", false, true, ExitRunError}} {
		t.Run(tc.status, func(t *testing.T) {
			dir := t.TempDir()
			export := filepath.Join(dir, "s.json")
			code, stdout, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "--expect-status", tc.status,
				"-i", "20", "-u", "2", "--out", filepath.Join(dir, "r"), "--summary-export", export, "--no-report")
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			var doc struct {
				RootGroup struct {
					Checks map[string]struct{ Passes, Fails int64 } `json:"checks"`
				} `json:"root_group"`
			}
			b, _ := os.ReadFile(export)
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			c, ok := doc.RootGroup.Checks["status is "+tc.status]
			if !ok || (c.Passes == 20) != tc.passes || (c.Fails == 20) != tc.fails {
				t.Errorf("check = %+v (found %v)", c, ok)
			}
			mark := "✓ status is "
			if tc.fails {
				mark = "✗ status is "
			}
			if !strings.Contains(stdout, mark+tc.status) {
				t.Errorf("console lacks %q", mark+tc.status)
			}
		})
	}
}
