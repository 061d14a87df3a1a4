package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver/postgres/pgtest"
	"github.com/stampede-bench/stampede/internal/testenv"
)

// An LDBC Interactive user's path for IC1: generate a full network, load
// it into SQLite and PostgreSQL, run interactive.IC1 with every answer
// checked against the reference; the per-request CSV names each row's
// parameters.
func TestInteractiveIC1EndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end")
	}
	data := filepath.Join(t.TempDir(), "data")
	if code, _, stderr := runMain(t, t.Context(), "gen", "ldbc", "--sf", "0.002", "--out", data, "--quiet"); code != ExitOK {
		t.Fatalf("gen: exit %d\n%s", code, stderr)
	}
	targets := map[string]string{"sqlite": "sqlite://" + filepath.Join(t.TempDir(), "g.db")}
	if os.Getenv(pgtest.EnvVar) != "" || testenv.InCI(os.Getenv) {
		targets["postgres"] = pgtest.Schema(t)
	}
	for name, tgt := range targets {
		t.Run(name, func(t *testing.T) {
			if code, stdout, stderr := runMain(t, t.Context(), "load", "--target", tgt, "--data", data, "-q"); code != ExitOK {
				t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
			}
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := runMain(t, t.Context(), "run", "interactive.IC1", "--target", tgt, "--data", data,
				"-u", "2", "-i", "40", "--check-sample", "1", "--out", out, "--no-color")
			if code != ExitOK {
				t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stdout, "interactive.IC1") || !strings.Contains(stdout, "checks") ||
				strings.Contains(stdout, "wrong result") || failedChecks.MatchString(stdout) {
				t.Errorf("run output:\n%s", stdout)
			}
			csv, err := os.ReadFile(filepath.Join(out, "requests.csv"))
			if err != nil {
				matches, _ := filepath.Glob(filepath.Join(out, "*.csv"))
				if len(matches) == 0 {
					t.Fatalf("no per-request CSV in %s", out)
				}
				csv, _ = os.ReadFile(matches[0])
			}
			if !strings.Contains(string(csv), "interactive.IC1 person=") || !strings.Contains(string(csv), " firstName=") {
				t.Errorf("per-request CSV lacks IC1's parameter labels:\n%.500s", csv)
			}
		})
	}
}
