package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// TestConfigExecutorOptions: a config file's scenario is decoded by its
// executor; an option that executor does not take, or an unknown executor,
// is a one-line usage error naming it, before anything runs.
func TestConfigExecutorOptions(t *testing.T) {
	tests := []struct {
		name, scenario, want string
	}{
		{"option of another executor", "{executor: constant-vus, vus: 2, duration: 1s, rate: 100}",
			`config scenario builtin.Noop: constant-vus has no option "rate"`},
		{"default executor", "{vus: 2, iterations: 10}", `constant-vus has no option "iterations"`},
		{"unknown executor", "{executor: constant-vu, vus: 2}", `config scenario builtin.Noop: unknown executor "constant-vu"`},
		{"unknown option", "{executor: shared-iterations, iterashuns: 2}", "field iterashuns not found"},
		{"JSON", `{"executor": "ramping-vus", "stages": [{"duration": "1s", "target": 2}], "vus": 3}`,
			`ramping-vus has no option "vus"`},
		{"JSON file", `{"scenarios": {"builtin.Noop": {"executor": "shared-iterations", "iterations": 5, "rate": 9}}}`,
			`config scenario builtin.Noop: shared-iterations has no option "rate"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "c.yaml")
			text := "scenarios:\n  builtin.Noop: " + tc.scenario + "\n"
			if strings.HasPrefix(tc.scenario, `{"scenarios"`) {
				text = tc.scenario // a whole JSON file
			}
			if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "res")
			code, _, stderr := runMain(t, t.Context(), "run", "--config", cfg, "--out", out)
			if code != ExitUsage {
				t.Errorf("exit code %d, want 2; stderr: %s", code, stderr)
			}
			if !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("stderr %q, want one line containing %q", stderr, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("result directory written for a bad config")
			}
		})
	}
}

// A JSON config file runs like its YAML form: each scenario's executor
// with its own options.
func TestConfigJSONRuns(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"scenarios": {"builtin.Noop": {"executor": "per-vu-iterations", "vus": 3, "iterations": 5, "gracefulStop": "2s"}}}`), 0o644)
	out := filepath.Join(dir, "res")
	if code, _, stderr := runMain(t, t.Context(), "run", "--config", cfg, "--out", out, "--quiet", "--no-csv"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, err := resultdir.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Snapshot.Scenario("builtin.Noop").Counters[metrics.Iterations]; got != 15 {
		t.Errorf("iterations = %d, want 3 VUs × 5", got)
	}
	for _, s := range res.Options.Scenarios {
		if s.Config.Executor != "per-vu-iterations" || s.Config.GracefulStop != 2*time.Second {
			t.Errorf("%s config = %+v", s.Name, s.Config)
		}
	}
}
