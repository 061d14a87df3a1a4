package monitor

import "testing"

// TargetCPU counts one target's CPU once: --monitor pid= together with a
// process-exporter watching the same processes gave about twice /proc's
// figure (107 µs/op where /proc gives 56).
func TestTargetCPUCountedOnce(t *testing.T) {
	pid := Stats{Source: "pid:httptarget", Proc: true, procSec: 56}
	pidByNumber := Stats{Source: "pid:1234", Proc: true, procSec: 3}
	pe := Stats{Source: "process", Proc: true, procSec: 51}
	node := Stats{Source: "node", Host: true, hostSec: 200}
	nodeAndPE := Stats{Source: "s1", Host: true, hostSec: 150, Proc: true, procSec: 40}
	for _, c := range []struct {
		name  string
		stats []Stats
		want  float64
		ok    bool
	}{
		{"pid and process-exporter: the pid's", []Stats{pe, pid, node}, 56, true},
		{"two pid sources: both", []Stats{pid, pidByNumber, pe}, 59, true},
		{"process-exporter alone", []Stats{pe, node}, 51, true},
		{"process-exporter groups on two hosts", []Stats{pe, nodeAndPE}, 91, true},
		{"hosts alone", []Stats{node}, 200, true},
		{"nothing", []Stats{{Source: "x"}}, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, ok := TargetCPU(c.stats); got != c.want || ok != c.ok {
				t.Errorf("TargetCPU = %v, %v; want %v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}
