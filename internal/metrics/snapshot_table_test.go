package metrics

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// snap builds a one-scenario snapshot from values.
func snap(name string, start, end time.Time, warm time.Duration, values []int64, counters map[string]int64,
	rates map[string]*Rate, gauges map[string]*Gauge, errs map[string]int64, notes ...string) *Snapshot {
	sc := metric.NewScenarioSnapshot(name, "constant-vus")
	sc.Start, sc.End, sc.Warmup, sc.Notes = start, end, warm, notes
	if values != nil {
		h := metric.NewHistogram()
		for _, v := range values {
			record(h, v)
		}
		sc.Trends[ResponseTime] = &Trend{Unit: UnitMicros, Hist: h}
		sc.Units[ResponseTime] = UnitMicros
	}
	for k, v := range counters {
		sc.Counters[k] = v
	}
	for k, v := range rates {
		sc.Rates[k] = v
	}
	for k, v := range gauges {
		sc.Gauges[k] = v
	}
	for k, v := range errs {
		sc.Errors[k] = v
	}
	return &Snapshot{Version: SnapshotVersion, Start: start, End: end, Scenarios: []*ScenarioSnapshot{sc}}
}

// Merge: histograms merged, counters/rates/errors/gauges summed, warm-up
// the longest, time span the union, notes once, scenarios by name in
// first-seen order.
func TestMergeSemantics(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	p1 := snap("a", t0.Add(time.Second), t0.Add(10*time.Second), 2*time.Second, []int64{1, 2, 3},
		map[string]int64{Requests: 3, Errors: 1}, map[string]*Rate{Checks: {Passes: 2, Fails: 1}},
		map[string]*Gauge{VUs: {Value: 5, Min: 1, Max: 5}}, map[string]int64{"x": 1}, "note 1")
	p2 := snap("a", t0, t0.Add(8*time.Second), 3*time.Second, []int64{4, 5},
		map[string]int64{Requests: 2, Iterations: 2}, map[string]*Rate{Checks: {Passes: 1}},
		map[string]*Gauge{VUs: {Value: 3, Min: 2, Max: 4}}, map[string]int64{"x": 2, "y": 1}, "note 1", "note 2")
	p2.Interrupted = true
	p3 := snap("b", t0.Add(20*time.Second), t0.Add(30*time.Second), 0, nil, map[string]int64{Requests: 9}, nil, nil, nil)
	m, err := metric.Merge(roundTrip(t, p1), roundTrip(t, p2), roundTrip(t, p3))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Start.Equal(t0) || !m.End.Equal(t0.Add(30*time.Second)) || !m.Interrupted || len(m.Scenarios) != 2 ||
		m.Scenarios[0].Name != "a" || m.Scenarios[1].Name != "b" {
		t.Fatalf("merged run %v..%v interrupted=%v scenarios %d", m.Start, m.End, m.Interrupted, len(m.Scenarios))
	}
	a := m.Scenarios[0]
	if !a.Start.Equal(t0) || !a.End.Equal(t0.Add(10*time.Second)) || a.Warmup != 3*time.Second {
		t.Errorf("a: %v..%v warmup %v", a.Start, a.End, a.Warmup)
	}
	if st := a.Trends[ResponseTime].Stats(); st.Count != 5 || st.Min != 1 || st.Max != 5 || st.Avg != 3 || st.Med != 3 {
		t.Errorf("a responseTime %+v", st)
	}
	if !reflect.DeepEqual(a.Counters, map[string]int64{Requests: 5, Errors: 1, Iterations: 2}) {
		t.Errorf("a counters %v", a.Counters)
	}
	if *a.Rates[Checks] != (Rate{Passes: 3, Fails: 1}) || a.Rates[Checks].Value() != 0.75 {
		t.Errorf("a checks %+v", a.Rates[Checks])
	}
	if *a.Gauges[VUs] != (Gauge{Value: 8, Min: 3, Max: 9}) {
		t.Errorf("a vus %+v", a.Gauges[VUs])
	}
	if !reflect.DeepEqual(a.Errors, map[string]int64{"x": 3, "y": 1}) || !reflect.DeepEqual(a.Notes, []string{"note 1", "note 2"}) {
		t.Errorf("a errors %v notes %q", a.Errors, a.Notes)
	}
	if b := m.Scenarios[1]; b.Counters[Requests] != 9 || len(b.Trends) != 0 {
		t.Errorf("b %+v", b)
	}
}

func TestMergeRefuses(t *testing.T) {
	t0 := time.Now()
	old := snap("a", t0, t0, 0, nil, nil, nil, nil, nil)
	old.Version = 0
	bytesTrend := snap("a", t0, t0, 0, []int64{1}, nil, nil, nil, nil)
	bytesTrend.Scenarios[0].Trends[ResponseTime].Unit = UnitBytes
	tests := []struct {
		name  string
		parts []*Snapshot
		want  string
	}{
		{"nothing", nil, "merge: no snapshots"},
		{"other version", []*Snapshot{snap("a", t0, t0, 0, nil, nil, nil, nil, nil), old}, "snapshot 2 has version 0, want 1"},
		{"units differ", []*Snapshot{snap("a", t0, t0, 0, []int64{1}, nil, nil, nil, nil), bytesTrend},
			"merge scenario a: trend responseTime has units time and data"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := metric.Merge(tc.parts...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Merge: %v, want %q", err, tc.want)
			}
		})
	}
}

// A snapshot written to JSON reads back identical, histograms included.
func TestSnapshotJSONRoundTrip(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	s := snap("a", t0, t0.Add(time.Minute), time.Second, []int64{0, 10, 1000, 123456, HistHighest},
		map[string]int64{Requests: 5}, map[string]*Rate{Checks: {Passes: 1, Fails: 4}},
		map[string]*Gauge{VUs: {Value: 1.5, Min: 1, Max: 2}}, map[string]int64{"e": 7}, "n")
	s.Interrupted = true
	back := roundTrip(t, s)
	if !back.Scenarios[0].Trends[ResponseTime].Hist.Equals(s.Scenarios[0].Trends[ResponseTime].Hist) {
		t.Error("histogram changed")
	}
	back.Scenarios[0].Trends, s.Scenarios[0].Trends = nil, nil
	if !reflect.DeepEqual(back, s) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back.Scenarios[0], s.Scenarios[0])
	}
	var bad Snapshot
	for _, in := range []string{`{"scenarios":[{"trends":{"x":{"hdr":"!!"}}}]}`, `{"scenarios":[{"trends":{"x":{"hdr":"AAAA"}}}]}`} {
		if err := json.Unmarshal([]byte(in), &bad); err == nil || !strings.Contains(err.Error(), "decode histogram") {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// Trend statistics on values HDR holds exactly (1 µs buckets below 2048).
func TestTrendStats(t *testing.T) {
	h := metric.NewHistogram()
	for v := int64(1); v <= 100; v++ {
		record(h, v)
	}
	tr := &Trend{Unit: UnitMicros, Hist: h}
	st := tr.Stats()
	want := Stats{Count: 100, Min: 1, Avg: 50.5, Med: 50, Max: 100, P90: 90, P95: 95, P99: 99, P999: 100, StdDev: st.StdDev}
	if st != want || st.StdDev < 28.86 || st.StdDev > 28.87 {
		t.Errorf("stats %+v, want %+v (stddev 28.866)", st, want)
	}
	if p := tr.Percentile(75); p != 75 {
		t.Errorf("p75 = %v", p)
	}
	if (&Trend{Hist: metric.NewHistogram()}).Stats() != (Stats{}) {
		t.Error("empty trend has stats")
	}
	if metric.StatsOf(nil) != (PointStats{}) {
		t.Error("metric.StatsOf(nil) not zero")
	}
	enc, err := metric.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	if dec, err := metric.DecodeHistogram(enc); err != nil || !dec.Equals(h) {
		t.Errorf("decode: %v", err)
	}
}

func TestRateValue(t *testing.T) {
	for _, tc := range []struct {
		r    Rate
		want float64
	}{{Rate{}, 0}, {Rate{Passes: 1}, 1}, {Rate{Fails: 3}, 0}, {Rate{Passes: 1, Fails: 3}, 0.25}} {
		if got := tc.r.Value(); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.r, got, tc.want)
		}
	}
}

// Failure: the headline of a scenario whose error rate exceeds 1 %, or
// whose target was unreachable.
func TestFailure(t *testing.T) {
	tests := []struct {
		name     string
		counters map[string]int64
		errs     map[string]int64
		notes    []string
		want     string // "" for no failure
	}{
		{"no errors", map[string]int64{Requests: 100}, nil, nil, ""},
		{"exactly 1% is not a failure", map[string]int64{Requests: 100, Errors: 1}, map[string]int64{"e": 1}, nil, ""},
		{"2%", map[string]int64{Requests: 100, Errors: 2}, map[string]int64{"b": 1, "a": 1}, nil,
			"2.00% of 100 requests failed; top error (1×): a"},
		{"iterations when no requests", map[string]int64{Iterations: 4, Errors: 4}, map[string]int64{"boom": 4}, nil,
			"100.00% of 4 iterations failed; top error (4×): boom"},
		{"only failures", map[string]int64{Errors: 3}, map[string]int64{"refused": 2, "reset": 1}, nil,
			"100.00% of 3 iterations failed; top error (2×): refused"},
		{"unreachable with few errors", map[string]int64{Requests: 1000, Errors: 1}, map[string]int64{"refused": 1},
			[]string{"other", UnreachableNote + " 40% of VU time backing off"},
			"0.10% of 1000 requests failed; target unreachable: 40% of VU time backing off; top error (1×): refused"},
		{"more errors than requests", map[string]int64{Requests: 2, Errors: 6}, nil, nil, "300.00% of 2 requests failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := metric.NewScenarioSnapshot("s", "")
			for k, v := range tc.counters {
				sc.Counters[k] = v
			}
			for k, v := range tc.errs {
				sc.Errors[k] = v
			}
			sc.Notes = tc.notes
			f := FailureOf(sc)
			switch {
			case tc.want == "" && f != nil:
				t.Errorf("failure %q, want none", f)
			case tc.want != "" && f == nil:
				t.Errorf("no failure, want %q", tc.want)
			case f != nil && f.String() != tc.want:
				t.Errorf("failure %q, want %q", f, tc.want)
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	if r.Len() != 13 {
		t.Fatalf("%d built-ins", r.Len())
	}
	for name, id := range map[string]ID{ResponseTime: IDResponseTime, Iterations: IDIterations,
		RequestsFailed: IDRequestsFailed, VUsMax: IDVUsMax, Checks: IDChecks} {
		if got, ok := r.Lookup(name); !ok || got != id {
			t.Errorf("Lookup(%s) = %d %v, want %d", name, got, ok, id)
		}
	}
	id, err := r.Add(Def{Name: "kafka_lag", Kind: KindGauge, Unit: UnitNone})
	if err != nil || id != 13 {
		t.Fatalf("Add = %d, %v", id, err)
	}
	if again, err := r.Add(Def{Name: "kafka_lag", Kind: KindGauge, Unit: UnitNone}); err != nil || again != id {
		t.Errorf("re-Add = %d, %v", again, err)
	}
	for _, tc := range []struct {
		d    Def
		want string
	}{
		{Def{Name: "kafka_lag", Kind: KindCounter, Unit: UnitNone}, `metric "kafka_lag" already registered as a gauge`},
		{Def{Name: "kafka_lag", Kind: KindGauge, Unit: UnitBytes}, `metric "kafka_lag" already registered as a gauge`},
		{Def{Name: "", Kind: KindTrend, Unit: UnitNone}, "metric needs a name and a kind"},
		{Def{Name: "x", Kind: 0, Unit: UnitNone}, "metric needs a name and a kind"},
	} {
		if _, err := r.Add(tc.d); err == nil || err.Error() != tc.want {
			t.Errorf("Add(%+v) = %v, want %q", tc.d, err, tc.want)
		}
	}
	if r.Len() != 14 {
		t.Errorf("failed Adds registered: %d metrics", r.Len())
	}
	names := r.Names()
	if len(names) != 14 || names[0] != Checks || names[len(names)-1] != VUsMax {
		t.Errorf("names %v", names)
	}
	for k, s := range map[Kind]string{KindTrend: "trend", KindCounter: "counter", KindRate: "rate", KindGauge: "gauge", 0: "unknown"} {
		if k.String() != s {
			t.Errorf("Kind %d = %s", k, k)
		}
	}
	for u, s := range map[Unit]string{UnitNone: "default", UnitMicros: "time", UnitBytes: "data"} {
		if u.String() != s {
			t.Errorf("Unit %d = %s", u, u)
		}
	}
}

func TestClock(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := ClockAt(base)
	if c.Base() != base || !c.Wall(1500*time.Millisecond).Equal(base.Add(1500*time.Millisecond)) {
		t.Errorf("clock at %v: wall %v", c.Base(), c.Wall(1500*time.Millisecond))
	}
	if n := NewClock().Now(); n < 0 || n > time.Second {
		t.Errorf("new clock reads %v", n)
	}
	for d, want := range map[time.Duration]int64{-1: -1, 0: 0, 999 * time.Millisecond: 0, time.Second: 1, 61 * time.Second: 61} {
		if got := secOf(d); got != want {
			t.Errorf("secOf(%v) = %d, want %d", d, got, want)
		}
	}
}
