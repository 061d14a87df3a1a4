package compare

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/envinfo"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/usage"
)

func TestParseMetric(t *testing.T) {
	tests := []struct {
		in      string
		want    Metric
		wantErr string
	}{
		{in: "responseTime:p99", want: Metric{"responseTime", "p99"}},
		{in: "latency:P95", want: Metric{"latency", "p95"}},
		{in: "responseTime:p99.9", want: Metric{"responseTime", "p99.9"}},
		{in: "iteration_duration:med", want: Metric{"iteration_duration", "med"}},
		{in: "messages:rate", want: Metric{"messages", "rate"}},
		{in: "qps", want: Metric{Name: QPS}},
		{in: "QPS", want: Metric{Name: QPS}},
		{in: "responseTime", wantErr: "want NAME:STAT"},
		{in: ":p95", wantErr: "want NAME:STAT"},
		{in: "responseTime:", wantErr: "want NAME:STAT"},
		{in: "responseTime:p0", wantErr: `unknown statistic "p0"`},
		{in: "responseTime:p101", wantErr: `unknown statistic "p101"`},
		{in: "responseTime:mean", wantErr: `unknown statistic "mean"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseMetric(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseMetric(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
			if back, _ := ParseMetric(got.String()); back != got {
				t.Errorf("String() = %q does not parse back", got.String())
			}
		})
	}
}

func TestMetricValue(t *testing.T) {
	r := run(t, "r", 9, machine(),
		scen{name: "reads", n: 1000, rt: 1000, spread: 10, warmup: 2 * time.Second},
		scen{name: "quiet", n: 0, rt: 1000, spread: 10, dur: 5 * time.Second})
	reads, quiet := r.Snapshot.Scenario("reads"), r.Snapshot.Scenario("quiet")
	tests := []struct {
		name     string
		sc       *metrics.ScenarioSnapshot
		warmup   time.Duration
		m        Metric
		want     float64
		wantUnit string
		wantOK   bool
	}{
		// 800 requests kept after a 2s warm-up of 10s, over 8s.
		{"qps excludes warm-up", reads, 2 * time.Second, Metric{Name: QPS}, 100, "req/s", true},
		{"qps over the wall time without warm-up", reads, 0, Metric{Name: QPS}, 80, "req/s", true},
		{"counter rate", reads, 2 * time.Second, Metric{"iterations", StatRate}, 100, "/s", true},
		{"max of a time trend", reads, 0, Metric{"responseTime", "max"}, float64(reads.Trends["responseTime"].Hist.Max()), "µs", true},
		{"no such trend", reads, 0, Metric{"latency", "avg"}, 0, "", false},
		{"no such counter", reads, 0, Metric{"messages", StatRate}, 0, "", false},
		{"empty trend", quiet, 0, Metric{"responseTime", "p95"}, 0, "", false},
		{"no requests: iterations per second", quiet, 0, Metric{Name: QPS}, 0, "it/s", true},
		{"warm-up as long as the run", reads, 10 * time.Second, Metric{Name: QPS}, 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, unit, ok := tt.m.value(tt.sc, tt.warmup)
			if ok != tt.wantOK || unit != tt.wantUnit || math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("value = %v %q %v, want %v %q %v", got, unit, ok, tt.want, tt.wantUnit, tt.wantOK)
			}
		})
	}
}

func TestCompareErrors(t *testing.T) {
	b, c := seedLike(t)
	other := side(t, "other", "results/other", 2, 5, sameEnv(""), func(int) []scen {
		return []scen{{name: "kafka.Produce", n: 100, rt: 500, spread: 10}}
	})
	tests := []struct {
		name       string
		base, cand Side
		opt        Options
		want       string
	}{
		{"no common scenario", b, other, Options{},
			"no scenario is in both default results/default (go.Go1Step, insert.InsertPersonScenario, fetch.FetchTag, go.Go2Step) and other results/other (kafka.Produce)"},
		{"unknown scenario", b, c, Options{Scenarios: []string{"go.Go9Step"}},
			"scenario go.Go9Step is in neither default nor autofdo"},
		{"scenario on one side only", b, c, Options{Scenarios: []string{"fetch.FetchTag"}},
			"no scenario is in both"},
		{"metric in no scenario", b, c, Options{Metrics: []Metric{{"bytes", "p95"}}},
			"metric bytes:p95 is in no scenario of both default and autofdo (trends: iteration_duration, latency, responseTime, rows; or qps, or COUNTER:rate)"},
		{"server latency only on one side", b, c, Options{Metrics: []Metric{{"latency", "avg"}}, Scenarios: []string{"insert.InsertPersonScenario"}},
			"metric latency:avg is in no scenario"},
		{"bad alpha", b, c, Options{Alpha: 1.5}, "alpha 1.5, want in (0, 1)"},
		{"empty side", b, Side{Name: "candidate", Path: "nowhere"}, Options{}, "candidate (nowhere) has no run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compare(tt.base, tt.cand, tt.opt)
			if !usage.Is(err) {
				t.Fatalf("err = %v, want a usage error", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestCompareMismatchedMetrics: a metric missing on one side of a scenario
// is left out of that scenario with a note naming the side and the runs;
// the other metrics and scenarios are still compared.
func TestCompareMismatchedMetrics(t *testing.T) {
	withLatency := func(lat bool) func(int) []scen {
		return func(i int) []scen {
			return []scen{
				{name: "go.Go1Step", n: 1000, rt: 400, spread: 50, latency: lat || i == 0},
				{name: "go.Go2Step", n: 1000, rt: 900, spread: 50, latency: true},
			}
		}
	}
	b := side(t, "base", "b", 4, 1, sameEnv(""), withLatency(true))
	c := side(t, "candidate", "c", 4, 2, sameEnv(""), withLatency(false))
	rep, err := Compare(b, c, Options{Metrics: []Metric{{"latency", "p95"}, {Name: QPS}}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, s := range rep.Scenarios {
		for _, m := range s.Metrics {
			got[s.Name] = append(got[s.Name], m.Metric.String())
		}
	}
	if strings.Join(got["go.Go1Step"], ",") != "qps" || strings.Join(got["go.Go2Step"], ",") != "latency:p95,qps" {
		t.Errorf("compared metrics = %v", got)
	}
	want := "latency:p95 not compared: missing from candidate (runs 2, 3, 4); trends there: iteration_duration, responseTime, rows"
	if notes := rep.Scenarios[0].Notes; len(notes) != 1 || notes[0] != want {
		t.Errorf("notes = %q, want [%q]", notes, want)
	}

	// Defaults fall back to responseTime when one run lacks latency.
	rep, err = Compare(b, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := rep.Scenarios[0].Metrics[0].Metric; m != (Metric{"responseTime", "avg"}) {
		t.Errorf("default metric of go.Go1Step = %v, want responseTime:avg", m)
	}
	if m := rep.Scenarios[1].Metrics[0].Metric; m != (Metric{"latency", "avg"}) {
		t.Errorf("default metric of go.Go2Step = %v, want latency:avg", m)
	}
}

func TestCompareEnvironment(t *testing.T) {
	mk := func(int) []scen { return []scen{{name: "s", n: 100, rt: 400, spread: 50}} }
	amd := func(int) envinfo.Fingerprint {
		f := machine()
		f.CPUModel = "AMD EPYC"
		return f
	}
	mixed := func(i int) envinfo.Fingerprint {
		if i == 2 {
			return amd(i)
		}
		return machine()
	}
	none := func(int) envinfo.Fingerprint { return envinfo.Fingerprint{} }
	tests := []struct {
		name         string
		base, cand   func(int) envinfo.Fingerprint
		wantWarnings []string
		wantNotes    []string
	}{
		{name: "same hardware", base: sameEnv(""), cand: sameEnv("6.1")},
		{name: "different CPU", base: sameEnv(""), cand: amd,
			wantWarnings: []string{"different hardware: CPU Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz vs AMD EPYC"}},
		{name: "runs of one side differ", base: mixed, cand: sameEnv(""),
			wantWarnings: []string{"base runs 1 and 3 ran on different hardware: CPU Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz vs AMD EPYC"}},
		{name: "no fingerprint", base: sameEnv(""), cand: none,
			wantNotes: []string{"candidate has no environment fingerprint (env.json): hardware not checked"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := side(t, "base", "b", 3, 1, tt.base, mk)
			c := side(t, "candidate", "c", 3, 2, tt.cand, mk)
			rep, err := Compare(b, c, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rep.Warnings, "|") != strings.Join(tt.wantWarnings, "|") {
				t.Errorf("warnings = %q, want %q", rep.Warnings, tt.wantWarnings)
			}
			if strings.Join(rep.Notes, "|") != strings.Join(tt.wantNotes, "|") {
				t.Errorf("notes = %q, want %q", rep.Notes, tt.wantNotes)
			}
		})
	}
}

func TestRegressions(t *testing.T) {
	// The candidate is ~8% faster on go.Go1Step; swapping the sides makes
	// it ~8.6% slower with ~7% less qps.
	b, c := seedLike(t)
	better, err := Compare(b, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	worse, err := Compare(c, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		rep  *Report
		pct  float64
		want []string
	}{
		{"improvement is no regression", better, 0, nil},
		{"any significant regression", worse, 0, []string{
			"go.Go1Step latency avg +8.61% (p=0.008 n=5)",
			"go.Go1Step latency p95 +8.79% (p=0.007 n=5)",
			"go.Go1Step qps -6.94% (p=0.008 n=5)",
			"go.Go2Step latency p95 +1.90% (p=0.016 n=4+5)",
		}},
		{"beyond 8%", worse, 8, []string{
			"go.Go1Step latency avg +8.61% (p=0.008 n=5)",
			"go.Go1Step latency p95 +8.79% (p=0.007 n=5)",
		}},
		{"beyond 10%", worse, 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, g := range tt.rep.Regressions(tt.pct) {
				got = append(got, g.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Regressions(%v) =\n%s\nwant\n%s", tt.pct, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
