package monitor

import (
	"testing"
	"time"
)

func TestMerge(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(src string, from, to int, cpu float64, jitter time.Duration) []Sample {
		var out []Sample
		for i := from; i <= to; i++ {
			out = append(out, Sample{Time: base.Add(time.Duration(i)*time.Second + jitter), Source: src, DT: 1,
				Values: map[string]float64{CPUUtil: cpu, CPUCores: 4, CPUBusyCores: 4 * cpu}})
		}
		return out
	}
	// Two segments watched the same node (seconds 1–10 and 3–12) and one
	// also a local process.
	a := writeSamples(t, append(mk("node", 1, 10, 0.5, 100*time.Millisecond), mk("pid:x", 1, 10, 0.1, 0)...))
	b := writeSamples(t, append(mk("node", 3, 12, 0.9, 300*time.Millisecond), Sample{Time: base.Add(11 * time.Second), Source: "node", Err: "timeout"}))
	out := t.TempDir()
	n, err := Merge([]string{a, b}, out)
	if err != nil {
		t.Fatal(err)
	}
	// node: 1–10 from a, 11–12 from b (the error at 11 loses to b's sample
	// of that second, which came first in b); pid: 10.
	if n != 12+10 {
		t.Errorf("%d samples, want 22", n)
	}
	st, err := Summarize(out, []Window{{}}, SummarizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	node := st[0][0]
	if node.Source != "node" || node.Samples != 12 || node.CPUSeconds < 4*(0.5*10+0.9*2)-1e-9 || node.CPUSeconds > 4*(0.5*10+0.9*2)+1e-9 {
		t.Errorf("merged node counted once per second: %+v", node)
	}
	if n, err := Merge([]string{t.TempDir()}, t.TempDir()); n != 0 || err != nil {
		t.Errorf("no series: %d %v", n, err)
	}
}
