package selfcheck

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// TestLiveAnnotate: scenarios run while the generator was saturated get
// the warning once (with the in-process remark when the target shares the
// process); the others get nothing; the samples are written to File.
func TestLiveAnnotate(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &Report{Cores: 2, Threshold: Threshold}
	for i := range 20 {
		cpu := 0.2
		if i >= 10 {
			cpu = 0.97
		}
		r.Samples = append(r.Samples, Sample{Time: base.Add(time.Duration(i+1) * time.Second), CPU: cpu})
	}
	for _, inProcess := range []bool{false, true} {
		l := LiveOf(r, inProcess)
		if err := l.Start(); err != nil || l.Stop() != nil || l.Report() != r {
			t.Fatal("LiveOf must keep its report through Start and Stop")
		}
		snap := &metrics.Snapshot{Scenarios: []*metrics.ScenarioSnapshot{
			{Name: "calm", Start: base, End: base.Add(10 * time.Second)},
			{Name: "busy", Start: base.Add(10 * time.Second), End: base.Add(20 * time.Second)},
		}}
		l.Annotate(snap)
		l.Annotate(snap)
		if n := snap.Scenarios[0].Notes; len(n) != 0 {
			t.Errorf("calm notes %q", n)
		}
		n := snap.Scenarios[1].Notes
		if len(n) != 1 || !strings.Contains(n[0], "limited by the client") || strings.HasSuffix(n[0], InProcessRemark) != inProcess {
			t.Errorf("inProcess=%v: busy notes %q", inProcess, n)
		}
	}
	dir := t.TempDir()
	if err := LiveOf(r, false).WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	back, err := Read(dir)
	if err != nil || back == nil || len(back.Samples) != 20 {
		t.Fatalf("read back %+v: %v", back, err)
	}
	empty := t.TempDir()
	if err := LiveOf(&Report{}, false).WriteDir(empty); err != nil {
		t.Fatal(err)
	}
	if back, _ := Read(empty); back != nil {
		t.Error("a self-check without samples wrote a file")
	}
}

// TestLiveSamples: a started self-check samples this process until Stop.
func TestLiveSamples(t *testing.T) {
	l := NewLive(false)
	l.interval = 20 * time.Millisecond
	if _, _, ok := l.Latest(); ok {
		t.Error("a sample before Start")
	}
	if err := l.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		if _, rss, ok := l.Latest(); ok {
			if rss <= 0 {
				t.Errorf("rss %d", rss)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no sample within 2s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	l.Stop()
	if r := l.Report(); r == nil || len(r.Samples) == 0 {
		t.Errorf("report %+v", r)
	}
}
