package builtin

import (
	"context"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/vu"
)

// newFamily returns the family with its flags bound to fs (the one place
// that knows how a family gets its options).
func newFamily(fs *pflag.FlagSet) *Family {
	f := New(DefaultOptions())
	f.BindFlags(fs)
	return f
}

// open parses args as the family's flags and opens names.
func open(t *testing.T, args []string, names ...string) (*workload.Opened, *metrics.Registry, error) {
	t.Helper()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f := newFamily(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	reg := metrics.NewRegistry()
	o, err := f.Open(context.Background(), &workload.Env{Metrics: reg, Log: io.Discard, Stderr: io.Discard,
		Getenv: func(string) string { return "" }}, names)
	return o, reg, err
}

// runScenario runs one opened scenario with cfg and returns its snapshot
// and the wall time the run took.
func runScenario(t *testing.T, reg *metrics.Registry, name string, sc vu.Scenario, cfg engine.Config) (*metrics.ScenarioSnapshot, time.Duration) {
	t.Helper()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{name})
	go agg.Run()
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if _, err := engine.Run(t.Context(), engine.Plan{Scenarios: []engine.Spec{{Name: name, Scenario: sc, Config: cfg}}},
		engine.Deps{Agg: agg, Clock: clock}); err != nil {
		t.Fatal(err)
	}
	took := time.Since(t0)
	agg.Close()
	return agg.Snapshot().Scenarios[0], took
}

func TestCatalog(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f := newFamily(fs)
	if f.Name() != "builtin" {
		t.Errorf("Name = %q", f.Name())
	}
	var names []string
	for _, s := range f.Scenarios() {
		names = append(names, s.Name)
		if s.Description == "" {
			t.Errorf("%s has no description", s.Name)
		}
	}
	if !reflect.DeepEqual(names, []string{"builtin.Noop", "builtin.Sleep"}) {
		t.Errorf("scenarios %v", names)
	}
	if defs := f.MetricDefs(names); len(defs) != 0 {
		t.Errorf("MetricDefs = %v, want none", defs)
	}
	if fl := fs.Lookup("sleep"); fl == nil || fl.DefValue != "1s" {
		t.Errorf("--sleep flag %+v, want default 1s", fl)
	}
}

func TestOpen(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		open    []string
		wantErr string
	}{
		{"both", nil, []string{"builtin.Noop", "builtin.Sleep"}, ""},
		{"one", []string{"--sleep", "0s"}, []string{"builtin.Sleep"}, ""},
		{"negative sleep", []string{"--sleep", "-1ms"}, []string{"builtin.Sleep"}, "--sleep must not be negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, _, err := open(t, tc.args, tc.open...)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr || o != nil {
					t.Fatalf("Open = %v, %v; want error %q", o, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.Target != "builtin (no target)" || len(o.Scenarios) != len(tc.open) {
				t.Fatalf("opened %+v", o)
			}
			for _, n := range tc.open {
				if o.Scenarios[n] == nil {
					t.Errorf("%s not opened", n)
				}
			}
		})
	}
}

// builtin.Noop records one successful operation per iteration and nothing
// else: the counts are exact.
func TestNoopRecordsEveryIteration(t *testing.T) {
	o, reg, err := open(t, nil, "builtin.Noop")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  engine.Config
		want int64
	}{
		{engine.Config{Executor: engine.PerVUIterations, VUs: 3, Iterations: 100}, 300},
		{engine.Config{Executor: engine.SharedIterations, VUs: 4, Iterations: 1001}, 1001},
	} {
		sc, _ := runScenario(t, reg, "builtin.Noop", o.Scenarios["builtin.Noop"], tc.cfg)
		if sc.Counters[metrics.Iterations] != tc.want || sc.Counters[metrics.Requests] != tc.want || sc.Counters[metrics.Errors] != 0 {
			t.Errorf("%s: counters %v, want %d iterations and requests", tc.cfg.Executor, sc.Counters, tc.want)
		}
		if r := sc.Rates[metrics.RequestsFailed]; r == nil || *r != (metrics.Rate{Fails: tc.want}) {
			t.Errorf("%s: requests_failed %+v", tc.cfg.Executor, r)
		}
		for _, trend := range []string{metrics.ResponseTime, metrics.IterationDuration, metrics.Rows} {
			if tr := sc.Trends[trend]; tr == nil || tr.Hist.TotalCount() != tc.want {
				t.Errorf("%s: %s has %v", tc.cfg.Executor, trend, tr)
			}
		}
		if len(sc.Errors) != 0 {
			t.Errorf("errors %v", sc.Errors)
		}
	}
}

// builtin.Sleep iterations last --sleep, and a long sleep stops with the run.
func TestSleep(t *testing.T) {
	o, reg, err := open(t, []string{"--sleep", "20ms"}, "builtin.Sleep")
	if err != nil {
		t.Fatal(err)
	}
	sc, took := runScenario(t, reg, "builtin.Sleep", o.Scenarios["builtin.Sleep"],
		engine.Config{Executor: engine.SharedIterations, VUs: 2, Iterations: 6})
	if sc.Counters[metrics.Iterations] != 6 || sc.Counters[metrics.Requests] != 6 {
		t.Errorf("counters %v", sc.Counters)
	}
	if min := sc.Trends[metrics.ResponseTime].Hist.Min(); min < 20_000 {
		t.Errorf("a 20 ms sleep took %d µs", min)
	}
	if took < 60*time.Millisecond {
		t.Errorf("6 sleeps of 20 ms on 2 VUs took %v", took)
	}

	o, reg, err = open(t, []string{"--sleep", "1h"}, "builtin.Sleep")
	if err != nil {
		t.Fatal(err)
	}
	sc, took = runScenario(t, reg, "builtin.Sleep", o.Scenarios["builtin.Sleep"],
		engine.Config{Executor: engine.ConstantVUs, VUs: 5, Duration: 200 * time.Millisecond, GracefulStop: time.Millisecond})
	if took > 3*time.Second {
		t.Errorf("an hour-long sleep held the run for %v", took)
	}
	if sc.Counters[metrics.Iterations] != 0 || sc.Counters[metrics.Requests] != 0 {
		t.Errorf("interrupted sleeps counted: %v", sc.Counters)
	}
}
