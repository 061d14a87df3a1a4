package selfcheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stampede-bench/stampede/internal/testenv"
)

// fakeSource returns a Source whose CPU time grows by the per-second loads
// given (in cores), one entry per call after the first.
func fakeSource(loads ...float64) Source {
	var mu sync.Mutex
	var cpu time.Duration
	i := -1
	return func() (Usage, error) {
		mu.Lock()
		defer mu.Unlock()
		if i >= 0 && i < len(loads) {
			cpu += time.Duration(loads[i] * float64(time.Second))
		}
		i++
		return Usage{CPU: cpu, RSS: int64(100+i) << 20}, nil
	}
}

func TestSampler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		s := Start(fakeSource(1.0, 1.9, 1.9, 0.2), 2, time.Second)
		time.Sleep(4*time.Second + time.Millisecond)
		if l, ok := s.Latest(); !ok || l.RSS != 104<<20 {
			t.Fatalf("Latest = %+v, %v", l, ok)
		}
		r := s.Stop()
		checkFixed(t, r)
		want := []float64{0.5, 0.95, 0.95, 0.1}
		if len(r.Samples) != len(want) {
			t.Fatalf("got %d samples, want %d", len(r.Samples), len(want))
		}
		for i, w := range want {
			if got := r.Samples[i].CPU; got < w-1e-9 || got > w+1e-9 {
				t.Errorf("sample %d CPU = %v, want %v", i, got, w)
			}
		}
		st := r.Window(start, start.Add(10*time.Second))
		if st.N != 4 || st.Busy != 2 || !st.Saturated() || st.MaxRSS != 104<<20 {
			t.Errorf("Window = %+v", st)
		}
		// The last second alone was quiet.
		if w := r.Warning(start.Add(3*time.Second), time.Time{}); w != "" {
			t.Errorf("quiet window warns: %q", w)
		}
		_ = s.Stop() // idempotent
	})
}

// checkFixed checks the report's fixed fields.
func checkFixed(t *testing.T, r *Report) {
	t.Helper()
	if r.Cores != 2 || r.Threshold != Threshold {
		t.Errorf("report cores %d threshold %v", r.Cores, r.Threshold)
	}
}

func TestWindowAndWarning(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(cpus ...float64) *Report {
		r := &Report{Cores: 2, Threshold: Threshold}
		for i, c := range cpus {
			r.Samples = append(r.Samples, Sample{Time: base.Add(time.Duration(i+1) * time.Second), CPU: c, RSS: 1 << 20})
		}
		return r
	}
	tests := []struct {
		name      string
		r         *Report
		saturated bool
	}{
		{"idle", mk(0.1, 0.2, 0.1), false},
		{"one spike in ten", mk(0.9, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1), false},
		{"two in ten", mk(0.9, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.95), true},
		{"busy throughout", mk(0.99, 0.97, 0.98), true},
		{"exactly at threshold is not busy", mk(0.85, 0.85), false},
		{"no samples", mk(), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.r.Window(time.Time{}, time.Time{})
			if st.Saturated() != tc.saturated {
				t.Fatalf("Saturated = %v (%+v), want %v", st.Saturated(), st, tc.saturated)
			}
			w := tc.r.Warning(time.Time{}, time.Time{})
			if (w != "") != tc.saturated {
				t.Fatalf("Warning = %q", w)
			}
			if w != "" && !strings.Contains(w, "limited by the client") {
				t.Errorf("warning text: %q", w)
			}
		})
	}
}

func TestProcessUsage(t *testing.T) {
	u1, err := ProcessUsage()
	if err != nil {
		testenv.Missing(t, "no process usage here: %v", err)
	}
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	u2, err := ProcessUsage()
	if err != nil {
		t.Fatal(err)
	}
	if u2.CPU <= u1.CPU {
		t.Errorf("CPU time did not grow while busy: %v → %v (%d loops)", u1.CPU, u2.CPU, x)
	}
	if u2.RSS <= 0 {
		t.Errorf("RSS = %d", u2.RSS)
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	if r, err := Read(dir); r != nil || err != nil {
		t.Fatalf("missing file: %v, %v", r, err)
	}
	want := &Report{Cores: 2, Threshold: Threshold, Samples: []Sample{{Time: time.Unix(1, 0).UTC(), CPU: 0.5, RSS: 7}}}
	b, _ := json.Marshal(want)
	if err := os.WriteFile(filepath.Join(dir, File), b, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Read(dir)
	if err != nil || got.Cores != 2 || len(got.Samples) != 1 || got.Samples[0].CPU != 0.5 {
		t.Fatalf("Read = %+v, %v", got, err)
	}
	os.WriteFile(filepath.Join(dir, File), []byte("{"), 0o644)
	if _, err := Read(dir); err == nil {
		t.Fatal("bad JSON accepted")
	}
}

func TestHostSaturation(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &Report{Cores: 2, Threshold: Threshold}
	for i := range 10 {
		r.Samples = append(r.Samples, Sample{Time: base.Add(time.Duration(i+1) * time.Second), CPU: 0.3, Host: 0.99})
	}
	st := r.Window(time.Time{}, time.Time{})
	if st.Saturated() || !st.HostSaturated() || st.HostBusy != 10 {
		t.Fatalf("stats %+v", st)
	}
	w := r.Warning(time.Time{}, time.Time{})
	if !strings.Contains(w, "other processes") || !strings.Contains(w, "30%") {
		t.Errorf("warning %q", w)
	}
}

func TestParseProcStat(t *testing.T) {
	stat := []byte("cpu  279658 492 80826 122754 1409 0 10335 573 40 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n")
	busy, total := parseProcStat(stat)
	if total != 279658+492+80826+122754+1409+0+10335+573 || busy != total-122754-1409 {
		t.Errorf("busy %d total %d", busy, total)
	}
	if b, tot := parseProcStat([]byte("intr 1 2 3\n")); b != 0 || tot != 0 {
		t.Errorf("not a cpu line: %d %d", b, tot)
	}
}

// A sample is computed only from an interval of at least MinInterval, and
// is never above the usable cores: a 200k-VU run printed "42207% of its
// 2 cores" from a tick 33 µs after the previous one.
func TestSampleOfBounds(t *testing.T) {
	for _, c := range []struct {
		name  string
		el    time.Duration
		cpu   time.Duration // CPU time used during el
		cores int
		ok    bool
		want  float64
	}{
		{"33 µs tick", 33 * time.Microsecond, 4 * time.Millisecond, 2, false, 0},
		{"just below the minimum", MinInterval - time.Microsecond, 10 * time.Millisecond, 2, false, 0},
		{"the minimum", MinInterval, 100 * time.Millisecond, 2, true, 0.5},
		{"a second, both cores", time.Second, 2 * time.Second, 2, true, 1},
		{"more CPU time than the cores had", time.Second, 5 * time.Second, 2, true, 1},
		{"clock went back", time.Second, -time.Second, 2, true, 0},
		{"no cores known", time.Second, time.Second / 2, 0, true, 0.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			smp, ok := sampleOf(Usage{CPU: time.Hour}, Usage{CPU: time.Hour + c.cpu}, c.el, c.cores)
			if ok != c.ok || (ok && (smp.CPU < c.want-1e-9 || smp.CPU > c.want+1e-9)) {
				t.Errorf("sampleOf = %+v, %v; want CPU %v, %v", smp, ok, c.want, c.ok)
			}
		})
	}
}

// A Sampler whose ticks come in faster than MinInterval merges them: each
// sample spans at least MinInterval.
func TestSamplerMergesShortIntervals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		s := Start(fakeSource(0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01), 1, 30*time.Millisecond)
		time.Sleep(301 * time.Millisecond)
		r := s.Stop()
		prev := start
		for _, smp := range r.Samples {
			if d := smp.Time.Sub(prev); d < MinInterval {
				t.Errorf("a sample spans %v", d)
			}
			if smp.CPU > 1 {
				t.Errorf("CPU %v", smp.CPU)
			}
			prev = smp.Time
		}
		if len(r.Samples) != 2 { // 0-120 ms, 120-240 ms
			t.Errorf("%d samples, want 2: %+v", len(r.Samples), r.Samples)
		}
	})
}
