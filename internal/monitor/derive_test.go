package monitor

import (
	"math"
	"os"
	"testing"
	"time"
)

// readFixture parses testdata/NAME with the scraper's filter and parser,
// as a reading taken at at.
func readFixture(t *testing.T, name string, extra []string, at time.Time) *reading {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	s := newScraper(Spec{Metrics: extra}, nil)
	fams, err := s.parse(b)
	if err != nil {
		t.Fatal(err)
	}
	r := newReading(at)
	deriveFamilies(r, fams, extra)
	return r
}

func TestDerive(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		files  [2]string
		extra  []string
		want   map[string]float64
		absent []string
	}{
		{
			name:  "node_exporter",
			files: [2]string{"node-1.prom", "node-2.prom"},
			extra: []string{"nebula_num_queries"},
			want: map[string]float64{
				CPUCores: 2, CPUUtil: 0.5, CPUBusyCores: 1, "cpu_user": 0.3, "cpu_system": 0.2, "cpu_idle": 0.4, "cpu_iowait": 0.1,
				MemTotal: 8e9, MemUsed: 3e9, MemUsedFrac: 0.375, Load1: 0.75,
				NetRx: 1.2e8, NetTx: 1000, NetRx + ":eth0": 1.2e8, NetRx + ":lo": 1000, NetTx + ":lo": 1000, NetSpeed + ":eth0": 1.25e8,
				DiskRead: 8192, DiskWrite: 0, DiskRead + ":sda": 8192, DiskIO: 0.25, DiskIO + ":sda": 0.25,
				"nebula_num_queries": 500,
			},
			// node_exporter's own process is not the target.
			absent: []string{ProcCPU, ProcUtil, NetSpeed + ":lo"},
		},
		{
			name:  "process-exporter",
			files: [2]string{"process-1.prom", "process-2.prom"},
			want: map[string]float64{
				ProcCPU: 2, ProcCPU + ":nebula-graphd": 1.5, ProcCPU + ":nebula-storaged": 0.5,
				ProcRSS: 4e8, ProcRSS + ":nebula-graphd": 1e8, ProcThreads: 100, ProcThreads + ":nebula-storaged": 60,
			},
			absent: []string{CPUUtil, ProcUtil},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := readFixture(t, tc.files[0], tc.extra, t0)
			b := readFixture(t, tc.files[1], tc.extra, t0.Add(time.Second))
			v, dt := derive(a, b)
			if dt != 1 {
				t.Errorf("dt = %v, want 1", dt)
			}
			for k, w := range tc.want {
				if got, ok := v[k]; !ok || math.Abs(got-w) > 1e-6*math.Max(1, math.Abs(w)) {
					t.Errorf("%s = %v (present %v), want %v", k, got, ok, w)
				}
			}
			for _, k := range tc.absent {
				if _, ok := v[k]; ok {
					t.Errorf("%s present (%v), want absent", k, v[k])
				}
			}
		})
	}
}

func TestDeriveCounterReset(t *testing.T) {
	t0 := time.Now()
	// The exporter restarted: its counters went back; no rate, no nonsense.
	a := readFixture(t, "node-2.prom", nil, t0)
	b := readFixture(t, "node-1.prom", nil, t0.Add(time.Second))
	v, _ := derive(a, b)
	for _, k := range []string{NetRx, CPUUtil, DiskRead} {
		if x, ok := v[k]; ok && x != 0 {
			t.Errorf("%s = %v after a reset, want none", k, x)
		}
	}
	if v[MemUsed] != 2e9 {
		t.Errorf("gauges still count: mem used %v, want 2e9", v[MemUsed])
	}
}

func TestScraperFilterKeepsOnlyWanted(t *testing.T) {
	b, err := os.ReadFile("testdata/node-1.prom")
	if err != nil {
		t.Fatal(err)
	}
	s := newScraper(Spec{}, nil)
	fams, err := s.parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if fams["node_scrape_collector_success"] != nil || fams["nebula_num_queries"] != nil {
		t.Error("families nobody asked for were parsed")
	}
	if fams["node_cpu_seconds_total"] == nil || len(fams["node_cpu_seconds_total"].Metric) != 8 {
		t.Errorf("node_cpu_seconds_total: %v", fams["node_cpu_seconds_total"])
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range []string{"node-1.prom", "process-1.prom"} {
		b, err := os.ReadFile("testdata/" + n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} NaN\n"))
	f.Add([]byte("# TYPE x summary\nx_sum 1\nx_count 2\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		s := newScraper(Spec{Metrics: []string{"x", "y_total"}}, nil)
		fams, err := s.parse(body)
		if err != nil {
			return
		}
		a := newReading(time.Unix(0, 0))
		deriveFamilies(a, fams, s.extra)
		b := newReading(time.Unix(1, 0))
		deriveFamilies(b, fams, s.extra)
		derive(a, b) // must not panic
	})
}
