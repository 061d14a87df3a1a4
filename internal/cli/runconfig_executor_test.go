package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "c.yaml")
			if err := os.WriteFile(cfg, []byte("scenarios:\n  builtin.Noop: "+tc.scenario+"\n"), 0o644); err != nil {
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
