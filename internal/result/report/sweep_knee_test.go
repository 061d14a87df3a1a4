package report

import (
	"strings"
	"testing"
)

func TestMarkKnee(t *testing.T) {
	ss := &SweepScenario{Name: "go.Go1Step", Points: []SweepPoint{
		{Value: "50", Throughput: 1000, P99: 10},
		{Value: "100", Throughput: 1900, P99: 12},
		{Value: "200", Throughput: 1950, P99: 40},
	}}
	markKnee(ss)
	if ss.KneeAt != 2 || !strings.Contains(ss.Knee, "knee between 100 and 200") || !strings.Contains(ss.Knee, "≈ 100") {
		t.Errorf("knee at %d: %q", ss.KneeAt, ss.Knee)
	}
	lin := &SweepScenario{Points: []SweepPoint{{Value: "1", Throughput: 100, P99: 1}, {Value: "2", Throughput: 200, P99: 1}}}
	markKnee(lin)
	if lin.KneeAt != -1 || lin.Knee != "" {
		t.Errorf("linear curve marked: %d %q", lin.KneeAt, lin.Knee)
	}
}
