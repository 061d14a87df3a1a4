package cli

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/envinfo"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// writeCompareRun writes a result directory with one scenario per entry of
// rts: 2000 requests over 10s around that many µs (±10%), through the real
// metrics pipeline. run varies the values a little between runs.
func writeCompareRun(t *testing.T, dir string, run int, rts map[string]int64) {
	t.Helper()
	var names []string
	for n := range rts {
		names = append(names, n)
	}
	slices.Sort(names)
	reg := metrics.NewRegistry()
	clock := metrics.ClockAt(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	agg := metrics.NewAggregator(reg, clock, names)
	go agg.Run()
	for i, name := range names {
		rec := agg.Recorder(i, 0)
		base := rts[name] + int64(run)
		for k := range 2000 {
			at := time.Duration(k) * 5 * time.Millisecond
			rt := base - base/10 + int64(k*7919%2000)*base/10000
			rec.Op(at, rt, -1, -1, 1, "")
			rec.Iteration(at, time.Duration(rt)*time.Microsecond)
		}
		rec.Flush()
		agg.Mark(i, clock.Wall(0), clock.Wall(10*time.Second), false, "constant-vus")
	}
	agg.Close()
	if err := resultdir.Prepare(dir); err != nil {
		t.Fatal(err)
	}
	env := envinfo.Fingerprint{CPUModel: "Test CPU", Sockets: 1, Cores: 2, Threads: 2, MemoryBytes: 8 << 30, GoVersion: "go1.26.8", Stampede: "dev"}
	for name, v := range map[string]any{resultdir.SnapshotFile: agg.Snapshot(), resultdir.EnvFile: env, resultdir.OptionsFile: resultdir.Options{Run: run}} {
		if err := resultdir.WriteJSON(dir, name, v); err != nil {
			t.Fatal(err)
		}
	}
}

// writeRepeated writes runs run-01..run-NN under parent.
func writeRepeated(t *testing.T, parent string, n int, rts map[string]int64) string {
	t.Helper()
	for i := 1; i <= n; i++ {
		writeCompareRun(t, filepath.Join(parent, fmt.Sprintf("run-%02d", i)), i, rts)
	}
	return parent
}

func TestCompare(t *testing.T) {
	dir := t.TempDir()
	base := writeRepeated(t, filepath.Join(dir, "base"), 5, map[string]int64{"http.Request": 1000, "http.Other": 500})
	slower := writeRepeated(t, filepath.Join(dir, "slower"), 5, map[string]int64{"http.Request": 1100})
	same := writeRepeated(t, filepath.Join(dir, "same"), 5, map[string]int64{"http.Request": 1000, "http.Other": 500})
	other := writeRepeated(t, filepath.Join(dir, "other"), 2, map[string]int64{"kafka.Produce": 700})
	single := filepath.Join(base, "run-03")

	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout []string // substrings
		wantStderr string   // substring of the single stderr line; "" = no stderr
	}{
		{
			name: "text, missing scenario named",
			args: []string{"compare", base, slower},
			wantStdout: []string{
				"base:      " + base + " (5 runs)",
				"note: scenario http.Other is only in base (" + base + "): not compared",
				"responseTime avg (µs)", "+9.97% (p=0.008 n=5) worse", "~ (p=1.000 n=5)",
			},
		},
		{
			name:       "markdown with names",
			args:       []string{"compare", base, slower, "--format", "md", "--names", "default,pgo"},
			wantStdout: []string{"| environment | default | pgo | |", "| run | responseTime avg (µs) default | responseTime avg (µs) pgo |", "| pgo/default |  | +9.97% |"},
		},
		{
			name:       "csv keeps notes on stderr",
			args:       []string{"compare", base, slower, "--format", "csv"},
			wantStdout: []string{"scenario,metric,unit,better,alpha,base_n,cand_n,base_1,", "http.Request,responseTime:p95,µs,lower,0.05,5,5,"},
			wantStderr: "note: scenario http.Other is only in base",
		},
		{
			name:       "chosen metrics, scenario filter, single run against repeated",
			args:       []string{"compare", single, same, "--metric", "responseTime:p99", "--metric", "qps", "--scenario", "http.Other"},
			wantStdout: []string{"http.Other", "responseTime p99 (µs)", "too few runs: 1 vs 5"},
		},
		{
			name:       "regression beyond the threshold",
			args:       []string{"compare", base, slower, "--fail-on-regression", "5"},
			wantCode:   ExitRegression,
			wantStdout: []string{"worse"},
			wantStderr: "stampede: compare: candidate worse than base by more than 5%: http.Request responseTime avg +9.97% (p=0.008 n=5); http.Request responseTime p95 +9.97% (p=0.008 n=5)\n",
		},
		{
			name:       "regression within the threshold",
			args:       []string{"compare", base, slower, "--fail-on-regression", "12"},
			wantStdout: []string{"worse"},
		},
		{
			name:       "an improvement is no regression",
			args:       []string{"compare", slower, base, "--fail-on-regression", "0"},
			wantStdout: []string{"better"},
		},
		{
			name:       "no common scenario",
			args:       []string{"compare", base, other},
			wantCode:   ExitUsage,
			wantStderr: "stampede: cannot compare: no scenario is in both base " + base + " (http.Other, http.Request) and candidate " + other + " (kafka.Produce)",
		},
		{
			name:       "metric in no scenario",
			args:       []string{"compare", base, slower, "--metric", "latency:p95"},
			wantCode:   ExitUsage,
			wantStderr: "stampede: cannot compare: metric latency:p95 is in no scenario of both base and candidate (trends: iteration_duration, responseTime, rows; or qps, or COUNTER:rate)",
		},
		{
			name:       "unknown scenario",
			args:       []string{"compare", base, slower, "--scenario", "go.Go1Step"},
			wantCode:   ExitUsage,
			wantStderr: "scenario go.Go1Step is in neither base nor candidate",
		},
		{
			name:       "bad metric syntax",
			args:       []string{"compare", base, slower, "--metric", "responseTime:p999x"},
			wantCode:   ExitUsage,
			wantStderr: `stampede: compare: --metric metric "responseTime:p999x": unknown statistic`,
		},
		{
			name:       "not a result directory",
			args:       []string{"compare", dir + "/nope", slower},
			wantCode:   ExitUsage,
			wantStderr: "stampede: cannot compare: base: read results:",
		},
		{"one argument", []string{"compare", base}, ExitUsage, nil, "stampede: compare: give BASE and CANDIDATE result directories (got 1 arguments)"},
		{"bad format", []string{"compare", base, slower, "--format", "html"}, ExitUsage, nil, `--format "html": want text, md or csv`},
		{"bad alpha", []string{"compare", base, slower, "--alpha", "5"}, ExitUsage, nil, "--alpha 5: want a level in (0, 1)"},
		{"negative threshold", []string{"compare", base, slower, "--fail-on-regression", "-1"}, ExitUsage, nil, "want a percentage ≥ 0"},
		{"bad names", []string{"compare", base, slower, "--names", "pgo"}, ExitUsage, nil, `--names "pgo": want two different labels`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), tt.args, &stdout, &stderr)
			if code != tt.wantCode {
				t.Fatalf("exit code = %d, want %d; stderr: %s", code, tt.wantCode, stderr.String())
			}
			for _, s := range tt.wantStdout {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout.String())
				}
			}
			if tt.wantStderr == "" {
				if stderr.Len() != 0 {
					t.Errorf("stderr = %q, want nothing", stderr.String())
				}
				return
			}
			got := stderr.String()
			if !strings.Contains(got, tt.wantStderr) {
				t.Errorf("stderr = %q, want it to contain %q", got, tt.wantStderr)
			}
			if tt.wantCode != ExitOK && strings.Count(got, "\n") != 1 {
				t.Errorf("stderr = %q, want one line", got)
			}
		})
	}
}
