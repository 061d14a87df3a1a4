package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A k6 script run stops within 2 s of Ctrl+C (a cancelled context), even
// in the middle of a sleep, and keeps what it measured.
func TestK6ScriptInterrupt(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "long.js")
	os.WriteFile(script, []byte("import { sleep } from 'k6';\nexport const options = { vus: 3, duration: '60s' };\nexport default function () { sleep(30); }\n"), 0o644)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(1500*time.Millisecond, cancel)
	start := time.Now()
	sum := filepath.Join(dir, "summary.json")
	code, stdout, stderr := runMain(t, ctx, "run", script, "--out", filepath.Join(dir, "res"), "--summary-export", sum, "-q", "--no-report")
	if code != ExitInterrupted {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitInterrupted, stdout, stderr)
	}
	if d := time.Since(start); d > 1500*time.Millisecond+2*time.Second {
		t.Errorf("stopped %s after the interrupt, want ≤ 2s", d-1500*time.Millisecond)
	}
	if _, err := os.Stat(sum); err != nil {
		t.Errorf("no summary after the interrupt: %v", err)
	}
}
