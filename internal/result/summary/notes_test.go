package summary

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// TestRunNotesOnce: a note every scenario carries (the target, the data
// set, the generator's CPU) is printed once for the run; a scenario's own
// note only under it (a 5-scenario run printed the same 7 notes under
// every scenario). With notes() printing sc.Notes again, the shared note
// appears 3 times and the test fails.
func TestRunNotesOnce(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const shared = "embedded SQLite target (one writer: inserts queue on its write lock)"
	var scs []*metrics.ScenarioSnapshot
	for _, name := range []string{"go.Go1Step", "go.Go2Step", "insert.InsertPersonScenario"} {
		notes := []string{shared}
		if strings.HasPrefix(name, "insert.") {
			notes = append(notes, "insert.InsertPersonScenario: new person ids 1..10")
		}
		scs = append(scs, &metrics.ScenarioSnapshot{Name: name, Start: start, End: start.Add(time.Second),
			Counters: map[string]int64{metrics.Requests: 10, metrics.Iterations: 10}, Notes: notes})
	}
	snap := &metrics.Snapshot{Start: start, End: start.Add(time.Second), Scenarios: scs}
	var buf bytes.Buffer
	if err := WriteConsole(&buf, snap, ConsoleOptions{Width: 200}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, shared); n != 1 {
		t.Errorf("the run-wide note is printed %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(out, "█ RUN NOTES") {
		t.Errorf("no RUN NOTES block:\n%s", out)
	}
	own := strings.Index(out, "new person ids 1..10")
	if own < 0 || own < strings.Index(out, "█ insert.InsertPersonScenario") || strings.Count(out, "new person ids") != 1 {
		t.Errorf("the scenario's own note is not under it, once:\n%s", out)
	}
	// One scenario: its notes stay under it, no RUN NOTES block.
	snap.Scenarios = scs[:1]
	buf.Reset()
	if err := WriteConsole(&buf, snap, ConsoleOptions{Width: 200}); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); strings.Contains(out, "RUN NOTES") || strings.Count(out, shared) != 1 {
		t.Errorf("one scenario:\n%s", out)
	}
}
