package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver/postgres/pgtest"
	"github.com/stampede-bench/stampede/internal/testenv"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

func TestLoadCommand(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.With(ldbctest.Tiny, map[string][]string{
		"social_network/dynamic/person_knows_person_0_0.csv": {"2|1|2012-01-01T00:00:00.000+0000"},
	}))
	targets := map[string]string{"sqlite": "sqlite://" + filepath.Join(t.TempDir(), "g.db")}
	if os.Getenv(pgtest.EnvVar) != "" || testenv.InCI(os.Getenv) {
		targets["postgres"] = pgtest.Schema(t)
	}
	for name, tgt := range targets {
		t.Run(name, func(t *testing.T) {
			failed := filepath.Join(t.TempDir(), "failed.csv")
			code, _, stderr := runMain(t, t.Context(), "load", "--target", tgt, "--data", data, "--failed-rows", failed, "-q")
			if code != ExitUsage || !strings.Contains(stderr, "1 of 18 rows are not valid") || !strings.Contains(stderr, "nothing was loaded") ||
				strings.Count(stderr, "\n") != 1 {
				t.Fatalf("a rejected row without --max-rejected: exit %d, stderr %q; want 2 and one line", code, stderr)
			}
			code, stdout, stderr := runMain(t, t.Context(), "load", "--target", tgt, "--data", data, "--failed-rows", failed, "--max-rejected", "1", "-q")
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, want := range []string{"person_knows_person", "counts verified", "CsvBasic layout", "1 rows were not loaded (allowed by --max-rejected): see " + failed} {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			code, _, stderr = runMain(t, t.Context(), "load", "--target", tgt, "--data", data, "-q")
			if code != ExitUsage || !strings.Contains(stderr, "--drop") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("reload without --drop: exit %d, stderr %q; want 2 and one line naming --drop", code, stderr)
			}
			if code, _, stderr = runMain(t, t.Context(), "load", "--target", tgt, "--data", data, "--drop", "--max-rejected", "10%", "-q"); code != ExitOK {
				t.Errorf("--drop: exit %d: %s", code, stderr)
			}
		})
	}
}

func TestLoadCommandBadInput(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no target", []string{"load", "--data", data}, "--target and --data are required"},
		{"bad scheme", []string{"load", "--target", "nope://x", "--data", data}, "cannot load into nope"},
		{"no data", []string{"load", "--target", "sqlite://" + filepath.Join(t.TempDir(), "x.db"), "--data", t.TempDir()}, "no LDBC data"},
		{"unreachable", []string{"load", "--target", "postgres://me:hunter2@127.0.0.1:1/db?connect_timeout=2", "--data", data}, "cannot connect"},
		{"workers", []string{"load", "--target", "sqlite://x.db", "--data", data, "--workers", "0"}, "--workers"},
		{"max-rejected", []string{"load", "--target", "sqlite://x.db", "--data", data, "--max-rejected", "-1"}, "--max-rejected"},
		{"max-rejected pct", []string{"load", "--target", "sqlite://x.db", "--data", data, "--max-rejected", "101%"}, "--max-rejected"},
		{"date-format", []string{"load", "--target", "sqlite://x.db", "--data", data, "--date-format", "unix"}, "--date-format"},
		{"failed rows inside data", []string{"load", "--target", "sqlite://" + filepath.Join(t.TempDir(), "x.db"), "--data", data, "--failed-rows", filepath.Join(data, "f.csv")}, "inside the data set"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runMain(t, t.Context(), tc.args...)
			if code != ExitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
			if strings.Contains(stderr, "hunter2") {
				t.Errorf("password in %q", stderr)
			}
		})
	}
}
