package run

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// TestAnnotateSaturation: scenarios run while the generator was saturated
// get the warning note; the others do not.
func TestAnnotateSaturation(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	self := &selfcheck.Report{Cores: 2, Threshold: selfcheck.Threshold}
	for i := range 20 {
		cpu := 0.2
		if i >= 10 {
			cpu = 0.97
		}
		self.Samples = append(self.Samples, selfcheck.Sample{Time: base.Add(time.Duration(i+1) * time.Second), CPU: cpu})
	}
	m := &output.Manager{}
	for _, o := range []output.Output{selfcheck.LiveOf(self, false), noteOutput("influxdb output x: 3 of 9 lines not written")} {
		if err := m.Start("", o, nil); err != nil {
			t.Fatal(err)
		}
	}
	snap := &metrics.Snapshot{Scenarios: []*metrics.ScenarioSnapshot{
		{Name: "calm", Start: base, End: base.Add(10 * time.Second)},
		{Name: "busy", Start: base.Add(10 * time.Second), End: base.Add(20 * time.Second), Notes: []string{"embedded target"}},
	}}
	m.Annotate(snap)
	if got := snap.Scenarios[0].Notes; len(got) != 1 || !strings.Contains(got[0], "influxdb") {
		t.Errorf("calm notes %q", got)
	}
	got := snap.Scenarios[1].Notes
	if len(got) != 3 || got[0] != "embedded target" || !strings.Contains(got[1], "limited by the client") {
		t.Errorf("busy notes %q", got)
	}
	var buf bytes.Buffer
	buf.WriteString(strings.Join(got, "\n"))
	if strings.Count(buf.String(), "limited by the client") != 1 {
		t.Error("warning repeated")
	}
}

// noteOutput is an output that notes a loss on every scenario, as
// InfluxDB does when lines were not written.
type noteOutput string

func (noteOutput) Description() string               { return "" }
func (noteOutput) Start() error                      { return nil }
func (noteOutput) Observe(*metrics.Point)            {}
func (noteOutput) Stop() error                       { return nil }
func (n noteOutput) Annotate(snap *metrics.Snapshot) { output.NoteAll(snap, string(n)) }
