package run

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// A saturated local host next to a pid= source: the note does not tell
// the user to add the --monitor pid= they gave. A generator throttled by
// its cgroup's quota, with the target idle, is named as the limit.
func TestAnnotateTargetPidGivenAndThrottledGenerator(t *testing.T) {
	start := time.Unix(1000, 0)
	host := monitor.Stats{Source: "node", Samples: 10, Host: true, Cores: 2, CPUAvg: 0.95, CPUMax: 0.99, CPUBusy: 10}
	pid := monitor.Stats{Source: "pid:target", Samples: 10, Proc: true, Cores: 2, CPUAvg: 0.3, CPUMax: 0.35}
	local := map[string]bool{"node": true, "pid:target": true}
	for _, c := range []struct {
		name    string
		sts     []monitor.Stats
		want    string
		notWant string
	}{
		{"pid given", []monitor.Stats{host, pid}, "the process sources' figures are the target's", "--monitor pid="},
		{"no pid", []monitor.Stats{host}, "--monitor pid=NAME", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := &metrics.ScenarioSnapshot{Name: "s", Start: start, End: start.Add(10 * time.Second)}
			annotateTarget(&metrics.Snapshot{Scenarios: []*metrics.ScenarioSnapshot{sc}}, map[string][]monitor.Stats{"s": c.sts}, nil, local)
			notes := strings.Join(sc.Notes, "\n")
			if !strings.Contains(notes, c.want) || (c.notWant != "" && strings.Contains(notes, c.notWant)) {
				t.Errorf("notes:\n%s", notes)
			}
		})
	}
	self := &selfcheck.Report{Cores: 2, Threshold: selfcheck.Threshold}
	for i := 1; i <= 10; i++ {
		self.Samples = append(self.Samples, selfcheck.Sample{Time: start.Add(time.Duration(i) * time.Second), CPU: 0.12, Throttled: 0.9})
	}
	sc := &metrics.ScenarioSnapshot{Name: "s", Start: start, End: start.Add(10 * time.Second)}
	remote := monitor.Stats{Source: "node", Samples: 10, Host: true, Cores: 8, CPUAvg: 0.1, CPUMax: 0.12}
	annotateTarget(&metrics.Snapshot{Scenarios: []*metrics.ScenarioSnapshot{sc}}, map[string][]monitor.Stats{"s": {remote}}, self, nil)
	if notes := strings.Join(sc.Notes, "\n"); !strings.Contains(notes, "the client, not the target, limited this scenario") {
		t.Errorf("throttled generator, idle target: notes\n%s", notes)
	}
}
