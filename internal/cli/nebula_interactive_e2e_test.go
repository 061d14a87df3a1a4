package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
)

// An LDBC Interactive user's path on NebulaGraph (the in-test stand-in
// graphd): generate a full network, load it, run short and complex reads
// with every answer checked against the reference.
func TestNebulaInteractiveEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end")
	}
	data := filepath.Join(t.TempDir(), "data")
	if code, _, stderr := runMain(t, t.Context(), "gen", "ldbc", "--sf", "0.002", "--out", data, "--quiet"); code != ExitOK {
		t.Fatalf("gen: exit %d\n%s", code, stderr)
	}
	c, err := nebulatest.StartCluster(1, nebulatest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	target := "nebula://root:nebula@" + c.Addrs()[0] + "/snb"
	if code, stdout, stderr := runMain(t, t.Context(), "load", "--target", target, "--data", data, "-q"); code != ExitOK {
		t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runMain(t, t.Context(), "run", "interactive.IS2", "interactive.IS7", "interactive.IC7", "interactive.IC13",
		"--target", target, "-u", "2", "-i", "20", "--check-sample", "1", "--out", out, "--no-color")
	if code != ExitOK {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"interactive.IS2", "interactive.IC13", "NOT NebulaGraph", "Interactive answers are compared cell by cell"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("run output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "wrong result") || failedChecks.MatchString(stdout) {
		t.Errorf("run output:\n%s", stdout)
	}
	// The per-request log holds each statement as sent and its label.
	var csv []byte
	filepath.Walk(out, func(p string, info os.FileInfo, err error) error {
		if b, _ := os.ReadFile(p); err == nil && strings.HasSuffix(p, ".csv") && strings.Contains(string(b), "interactive.IS2 person=") {
			csv = b
		}
		return nil
	})
	if !strings.Contains(string(csv), "MATCH (n:Person)<-[:HAS_CREATOR]-(m) WHERE id(n) == ") {
		t.Errorf("per-request CSV lacks IS2's statement:\n%.800s", csv)
	}
}
