package report

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// TestNotesOnce: notes every scenario carries are the run's (shown once),
// a scenario keeps only its own; the generator-CPU warning the self-check
// already noted (with its in-process remark) is not repeated as a warning
// of the same block. With buildScenario given no run notes, the shared
// note is under each scenario; with the exact-match test of old, the
// warning appears twice in the block.
func TestNotesOnce(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rep := &selfcheck.Report{Cores: 2, Threshold: 0.85}
	for i := 1; i <= 4; i++ {
		rep.Samples = append(rep.Samples, selfcheck.Sample{Time: start.Add(time.Duration(i) * time.Second), CPU: 0.99})
	}
	warn := rep.Warning(start, start.Add(4*time.Second))
	if warn == "" {
		t.Fatal("no saturation warning from the samples")
	}
	const shared = "embedded SQLite target (one writer: inserts queue on its write lock)"
	var scs []*metrics.ScenarioSnapshot
	for _, name := range []string{"go.Go1Step", "insert.InsertPersonScenario"} {
		notes := []string{shared, warn + selfcheck.InProcessRemark}
		if name == "insert.InsertPersonScenario" {
			notes = append(notes, "new person ids 1..10")
		}
		scs = append(scs, &metrics.ScenarioSnapshot{Name: name, Start: start, End: start.Add(4 * time.Second),
			Counters: map[string]int64{metrics.Requests: 10, metrics.Iterations: 10}, Notes: notes})
	}
	snap := &metrics.Snapshot{Version: metrics.SnapshotVersion, Start: start, End: start.Add(4 * time.Second), Scenarios: scs}
	run, err := buildRun(&resultdir.Result{Dir: t.TempDir(), Snapshot: snap}, "run", rep, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Notes) != 2 || run.Notes[0] != shared {
		t.Errorf("run notes %q, want the shared note and the warning", run.Notes)
	}
	for _, s := range run.Scenarios {
		for _, n := range s.Notes {
			if n == shared {
				t.Errorf("%s repeats the run's note", s.Name)
			}
		}
		for _, w := range s.Warnings {
			if strings.HasPrefix(w, "generator CPU above") {
				t.Errorf("%s repeats the generator-CPU warning as a warning: %q", s.Name, w)
			}
		}
	}
	if s := run.Scenarios[1]; len(s.Notes) != 1 || s.Notes[0] != "new person ids 1..10" {
		t.Errorf("insert's own notes %q", s.Notes)
	}
}
