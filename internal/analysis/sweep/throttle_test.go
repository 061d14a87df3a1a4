package sweep

import (
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/monitor"
)

// The generator held to a quarter of a core by its cgroup's quota shows
// 12% CPU while the target idles at 10%: the verdict names the client
// (it said "target limits throughput … look at locks"), and says the
// quota is why.
func TestThrottledGeneratorIsTheLimit(t *testing.T) {
	idle := &Target{Source: "node", CPU: 0.1, CPUMax: 0.12, Cores: 8}
	for _, c := range []struct {
		name  string
		curve []Point
	}{
		{"monitored", vusCurve(idle, idle, idle, idle)},
		{"unmonitored", vusCurve()},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i := range c.curve {
				c.curve[i].GeneratorCPU, c.curve[i].GeneratorMax = 0.12, 0.13
				c.curve[i].GeneratorSaturated, c.curve[i].GeneratorThrottled = true, 0.9
			}
			v := Diagnose(c.curve, FindKnee(c.curve, DefaultRule))
			if v.Side != SideClient || !strings.Contains(v.Reason, "throttled by its cgroup's CPU quota") || !strings.Contains(v.Reason, "cpu.max") {
				t.Errorf("verdict %+v", v)
			}
		})
	}
}

// With --monitor pid= given next to a node_exporter on the generator's
// own machine, the process's figures decide: the verdict neither takes the
// machine's CPU (which counts the generator) for the target's nor tells
// the user to add --monitor pid=.
func TestPidSourceDecidesOverLocalHost(t *testing.T) {
	sts := []monitor.Stats{
		{Source: "node", Samples: 10, Host: true, Cores: 2, CPUAvg: 0.95, CPUMax: 0.99, CPUBusy: 10},
		{Source: "pid:httptarget", Samples: 10, Proc: true, Cores: 2, CPUAvg: 0.3, CPUMax: 0.35},
	}
	local := map[string]bool{"node": true, "pid:httptarget": true}
	tg := targetOf(sts, local)
	if tg == nil || tg.Source != "pid:httptarget" || tg.Saturated {
		t.Fatalf("target %+v, want the pid source's figures", tg)
	}
	v := Diagnose(vusCurve(tg, tg, tg, tg), FindKnee(vusCurve(tg, tg, tg, tg), DefaultRule))
	if strings.Contains(v.Reason, "--monitor pid=") || strings.Contains(v.Reason, "generator's own machine") {
		t.Errorf("verdict with pid= given: %+v", v)
	}
	// Without the pid source the local host is all there is.
	if tg := targetOf(sts[:1], local); tg == nil || tg.Source != "node" || !tg.Local || !tg.Host {
		t.Errorf("host only: %+v", tg)
	}
}
