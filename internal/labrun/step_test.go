package labrun

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/lab"
)

// stampedeExe builds the stampede binary once per test binary (or takes
// STAMPEDE_LAB_EXE): nodes and generators are the real program.
func stampedeExe(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("STAMPEDE_LAB_EXE"); p != "" {
		return p
	}
	out := filepath.Join(t.TempDir(), "stampede")
	cmd := exec.Command("go", "build", "-o", out, "github.com/stampede-bench/stampede/cmd/stampede")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

func requireLab(t *testing.T) {
	t.Helper()
	if err := lab.Preflight(context.Background(), lab.Needs{}); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("lab test cannot run in CI: %v", err)
		}
		t.Skipf("lab test needs root: %v", err)
	}
}

func TestStepLinkBound(t *testing.T) {
	requireLab(t)
	exe := stampedeExe(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, err := RunStep(ctx, Config{Exe: exe, Dir: t.TempDir(), Nodes: 2, Clients: 4, NodeLink: lab.Link{Rate: 20e6}, ClientLink: lab.Link{Rate: 20e6},
		NodeCPU: 0.3, ClientCPU: 0.3, Window: 2 * time.Second, LedgerDir: t.TempDir(), Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(st, "", "  ")
	t.Logf("%s", b)
}
