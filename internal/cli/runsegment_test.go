package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/resultdir"
)

// TestRunSegmentRecorded: a segmented run records its segment in
// options.json and runs its share.
func TestRunSegmentRecorded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	code, _, stderr := runMain(t, context.Background(), "run", "builtin.Noop", "-i", "10", "-u", "2", "--segment", "2/3", "--start-at", "now", "--out", dir, "--no-csv", "--no-report")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Options.Segment != "2/3" {
		t.Errorf("options segment %q", r.Options.Segment)
	}
	// 10 iterations over 3 segments: 4, 3, 3.
	if c := r.Options.Scenarios[0].Config; c.Iterations != 3 || c.VUs != 1 {
		t.Errorf("config %+v", c)
	}
	if got := r.Snapshot.Scenarios[0].Counters["iterations"]; got != 3 {
		t.Errorf("ran %d iterations, want 3", got)
	}
	if !strings.Contains(stderr, "segment 2/3") {
		t.Errorf("stderr does not describe the segment:\n%s", stderr)
	}
}

// TestSegmentRateTotals: an arrival rate split over 3 segments schedules
// the whole plan's iterations within 1%.
func TestSegmentRateTotals(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for 3 s")
	}
	root := t.TempDir()
	const rate, want = 400, 400 // 400 it/s for 1 s
	var total int64
	for i := 1; i <= 3; i++ {
		dir := filepath.Join(root, fmt.Sprint(i))
		code, _, stderr := runMain(t, context.Background(), "run", "builtin.Noop", "--rate", fmt.Sprint(rate), "-d", "1s", "-u", "4",
			"--segment", fmt.Sprintf("%d/3", i), "--out", dir, "--no-csv", "--no-report", "-q")
		if code != 0 {
			t.Fatalf("segment %d: exit %d %s", i, code, stderr)
		}
		r, err := resultdir.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		sc := r.Snapshot.Scenarios[0]
		total += sc.Counters["iterations"] + sc.Counters["dropped_iterations"]
	}
	if d := float64(total-want) / want; d < -0.01 || d > 0.01 {
		t.Errorf("3 segments scheduled %d iterations, the whole plan %d (%.2f%%)", total, want, 100*d)
	}
}
