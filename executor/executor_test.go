package executor

import (
	"strings"
	"testing"
	"time"
)

// segmentShare is segment.Segment.Share for segment i of n (kept here so
// that engine does not import segment): the shares of x add up to x.
func segmentShare(i, n int) func(int64) int64 {
	return func(x int64) int64 {
		return x*int64(i)/int64(n) - x*int64(i-1)/int64(n)
	}
}

func TestExecutorValidate(t *testing.T) {
	tests := []struct {
		name string
		c    Config
		want string // "" for valid; otherwise the whole message
	}{
		{"constant-vus ok", Config{Executor: ConstantVUs, VUs: 5, Duration: time.Second}, ""},
		{"constant-vus default VU", Config{Executor: ConstantVUs, Duration: time.Second}, ""},
		{"constant-vus no duration", Config{Executor: ConstantVUs, VUs: 5}, "constant-vus needs a duration > 0"},
		{"constant-vus negative", Config{Executor: ConstantVUs, VUs: -1},
			"constant-vus needs vus ≥ 1\nconstant-vus needs a duration > 0"},
		{"ramping-vus ok", Config{Executor: RampingVUs, Stages: []Stage{{time.Second, 3}}}, ""},
		{"ramping-vus no stage", Config{Executor: RampingVUs}, "ramping-vus needs at least one stage"},
		{"ramping-vus negative", Config{Executor: RampingVUs, StartVUs: -1, Stages: []Stage{{time.Second, 3}, {-time.Second, 1}}},
			"startVUs must not be negative\nstage 2: duration and target must not be negative"},
		{"per-vu-iterations defaults", Config{Executor: PerVUIterations}, ""},
		{"per-vu-iterations negative", Config{Executor: PerVUIterations, VUs: 2, Iterations: -1},
			"per-vu-iterations needs vus ≥ 1 and iterations ≥ 1"},
		{"per-vu-iterations maxDuration", Config{Executor: PerVUIterations, MaxDuration: -time.Second},
			"per-vu-iterations needs maxDuration > 0"},
		{"shared-iterations ok", Config{Executor: SharedIterations, VUs: 3, Iterations: 3}, ""},
		{"shared-iterations fewer iterations than VUs", Config{Executor: SharedIterations, VUs: 10, Iterations: 5},
			"shared-iterations: iterations (5) must be ≥ vus (10)"},
		{"constant-arrival-rate ok", Config{Executor: ConstantArrivalRate, Rate: 10, Duration: time.Second}, ""},
		{"constant-arrival-rate no rate", Config{Executor: ConstantArrivalRate, Duration: time.Second},
			"constant-arrival-rate needs rate ≥ 1"},
		{"constant-arrival-rate VU bounds", Config{Executor: ConstantArrivalRate, Rate: 1, Duration: time.Second, PreAllocatedVUs: 5, MaxVUs: 2},
			"constant-arrival-rate: maxVUs (2) must be ≥ preAllocatedVUs (5)"},
		{"ramping-arrival-rate ok", Config{Executor: RampingArrivalRate, Stages: []Stage{{time.Second, 10}}}, ""},
		{"ramping-arrival-rate negative", Config{Executor: RampingArrivalRate, StartRate: -1, Stages: []Stage{{time.Second, 10}}, MaxVUs: -1},
			"startRate must not be negative\nramping-arrival-rate needs preAllocatedVUs ≥ 0 and maxVUs ≥ 1\nramping-arrival-rate: maxVUs (-1) must be ≥ preAllocatedVUs (1)"},
		{"unknown", Config{Executor: "nope"},
			`unknown executor "nope" (known: [constant-vus ramping-vus per-vu-iterations shared-iterations constant-arrival-rate ramping-arrival-rate])`},
		{"common problems come around the executor's", Config{Executor: ConstantVUs, Duration: time.Second, Warmup: 2 * time.Second, GracefulStop: -1},
			"gracefulStop and warmup must not be negative\nwarmup (2s) must be shorter than the duration (1s): nothing would be measured"},
		{"time unit", Config{Executor: ConstantArrivalRate, Rate: 1, TimeUnit: -time.Second},
			"constant-arrival-rate needs a duration > 0\ntimeUnit must be > 0"},
		{"stages of no time", Config{Executor: RampingVUs, Stages: []Stage{{0, 0}}},
			"the stages last 0s in all: nothing would run"},
		{"a week is the limit", Config{Executor: ConstantVUs, Duration: MaxTotalDuration}, ""},
		{"-d 999999h", Config{Executor: ConstantVUs, Duration: 999999 * time.Hour},
			"the scenario would run 999999h0m0s, longer than the limit of 168h0m0s (7 days)"},
		{"ramping past a week", Config{Executor: RampingVUs, Stages: []Stage{{100 * time.Hour, 1}, {100 * time.Hour, 1}}},
			"the scenario would run 200h0m0s, longer than the limit of 168h0m0s (7 days)"},
		{"rate 1e12", Config{Executor: ConstantArrivalRate, Rate: 1_000_000_000_000, Duration: time.Second},
			"a rate of 1e+12 iterations per second is above the limit of 10000000"},
		{"rate at the limit", Config{Executor: ConstantArrivalRate, Rate: MaxRatePerSecond, Duration: time.Second}, ""},
		{"rate per millisecond", Config{Executor: ConstantArrivalRate, Rate: 20_000, TimeUnit: time.Millisecond, Duration: time.Second},
			"a rate of 2e+07 iterations per second is above the limit of 10000000"},
		{"ramping rate stage", Config{Executor: RampingArrivalRate, Stages: []Stage{{time.Second, 20_000_000}}},
			"a rate of 2e+07 iterations per second is above the limit of 10000000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.Defaults().ValidateInput()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("ValidateInput() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExecutorDescribe(t *testing.T) {
	tests := []struct {
		c         Config
		want      string
		maxVUs    int64
		total     time.Duration
		fixed     time.Duration
		closed    bool
		wantNamed string
	}{
		{Config{Executor: ConstantVUs, VUs: 50, Duration: 30 * time.Second}, "50 VUs for 30s", 50, 30 * time.Second, 30 * time.Second, true, ConstantVUs},
		{Config{Executor: RampingVUs, StartVUs: 5, Stages: []Stage{{10 * time.Second, 100}, {20 * time.Second, 0}}},
			"ramping VUs over 2 stages, 30s", 100, 30 * time.Second, 30 * time.Second, true, RampingVUs},
		{Config{Executor: PerVUIterations, VUs: 3, Iterations: 7}, "3 VUs × 7 iterations", 3, 10 * time.Minute, 0, true, PerVUIterations},
		{Config{Executor: SharedIterations, VUs: 2, Iterations: 9, MaxDuration: time.Minute}, "9 iterations shared by 2 VUs", 2, time.Minute, 0, true, SharedIterations},
		{Config{Executor: ConstantArrivalRate, Rate: 1000, Duration: time.Minute, PreAllocatedVUs: 10, MaxVUs: 40},
			"1000 it/s for 1m0s (VUs 10..40)", 40, time.Minute, time.Minute, false, ConstantArrivalRate},
		{Config{Executor: ConstantArrivalRate, Rate: 7, TimeUnit: time.Minute, Duration: time.Hour},
			"7 it/1m0s for 1h0m0s (VUs 1..1)", 1, time.Hour, time.Hour, false, ConstantArrivalRate},
		{Config{Executor: RampingArrivalRate, Stages: []Stage{{time.Second, 10}, {2 * time.Second, 10}}, PreAllocatedVUs: 2},
			"ramping rate over 2 stages, 3s (VUs 2..2)", 2, 3 * time.Second, 3 * time.Second, false, RampingArrivalRate},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			c := tt.c.Defaults()
			e, err := Of(c)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Describe(); got != tt.want || c.Describe() != tt.want {
				t.Errorf("Describe() = %q (Config: %q), want %q", got, c.Describe(), tt.want)
			}
			if e.Name() != tt.wantNamed || e.MaxVUsNeeded() != tt.maxVUs || e.TotalDuration() != tt.total ||
				e.FixedDuration() != tt.fixed || e.Closed() != tt.closed {
				t.Errorf("%s: maxVUs %d total %s fixed %s closed %v; want %d %s %s %v", e.Name(),
					e.MaxVUsNeeded(), e.TotalDuration(), e.FixedDuration(), e.Closed(), tt.maxVUs, tt.total, tt.fixed, tt.closed)
			}
			if c.MaxVUsNeeded() != tt.maxVUs || c.TotalDuration() != tt.total {
				t.Errorf("Config: maxVUs %d total %s", c.MaxVUsNeeded(), c.TotalDuration())
			}
			if back := c.With(e); back.Describe() != tt.want || back.MaxVUs != c.MaxVUs || back.VUs != c.VUs {
				t.Errorf("With(Of(c)) = %+v, want %+v", back, c)
			}
		})
	}
	if got := (Config{Executor: "nope"}).Describe(); got != "nope" {
		t.Errorf("unknown executor described as %q", got)
	}
}

// TestExecutorSplit: for every executor and 1..7 segments, each part is
// valid, keeps the duration, and the parts' counts sum to the whole.
func TestExecutorSplit(t *testing.T) {
	stages := []Stage{{10 * time.Second, 100}, {20 * time.Second, 33}, {5 * time.Second, 0}}
	tests := []struct {
		c   Config
		sum func(Config) int64 // the count the segments share
	}{
		{Config{Executor: ConstantVUs, VUs: 50, Duration: time.Second}, func(c Config) int64 { return c.VUs }},
		{Config{Executor: PerVUIterations, VUs: 7, Iterations: 13}, func(c Config) int64 { return c.VUs * c.Iterations }},
		{Config{Executor: SharedIterations, VUs: 10, Iterations: 1001}, func(c Config) int64 { return c.Iterations }},
		{Config{Executor: RampingVUs, StartVUs: 5, Stages: stages}, func(c Config) int64 {
			n := c.StartVUs
			for _, s := range c.Stages {
				n += s.Target
			}
			return n
		}},
		{Config{Executor: ConstantArrivalRate, Rate: 1000, Duration: time.Second, PreAllocatedVUs: 10, MaxVUs: 40}, func(c Config) int64 { return c.Rate }},
		{Config{Executor: RampingArrivalRate, StartRate: 50, Stages: stages, PreAllocatedVUs: 20, MaxVUs: 100}, func(c Config) int64 {
			n := c.StartRate
			for _, s := range c.Stages {
				n += s.Target
			}
			return n
		}},
	}
	for _, tt := range tests {
		whole := tt.c.Defaults()
		for n := 1; n <= 7; n++ {
			e, err := Of(whole)
			if err != nil {
				t.Fatal(err)
			}
			var sum int64
			for i := 1; i <= n; i++ {
				part, ok := e.Split(segmentShare(i, n))
				if !ok {
					t.Fatalf("%s %d/%d: idle", whole.Executor, i, n)
				}
				pc := whole.With(part)
				if err := pc.Validate(); err != nil {
					t.Errorf("%s %d/%d: %v", whole.Executor, i, n, err)
				}
				if part.TotalDuration() != e.TotalDuration() {
					t.Errorf("%s %d/%d: duration %s, want %s", whole.Executor, i, n, part.TotalDuration(), e.TotalDuration())
				}
				sum += tt.sum(pc)
			}
			if want := tt.sum(whole); sum != want {
				t.Errorf("%s in %d segments: parts sum to %d, want %d", whole.Executor, n, sum, want)
			}
		}
	}
}

func TestExecutorSplitArrivalRate(t *testing.T) {
	e, _ := Of(Config{Executor: ConstantArrivalRate, Rate: 1000, Duration: time.Second, PreAllocatedVUs: 2, MaxVUs: 4}.Defaults())
	var rates []int64
	for i := 1; i <= 3; i++ {
		part, ok := e.Split(segmentShare(i, 3))
		p := part.(ConstantArrivalRateConfig)
		if !ok || p.MaxVUs < 1 || p.PreAllocatedVUs > p.MaxVUs {
			t.Errorf("part %d: %+v ok=%v", i, p, ok)
		}
		rates = append(rates, p.Rate)
	}
	if rates[0]+rates[1]+rates[2] != 1000 || rates[0] != 333 || rates[1] != 333 || rates[2] != 334 {
		t.Errorf("3 segments of 1000/s: rates %v", rates)
	}
	// More segments than the rate: some have nothing to run.
	e, _ = Of(Config{Executor: ConstantArrivalRate, Rate: 1, Duration: time.Second}.Defaults())
	if _, ok := e.Split(segmentShare(1, 2)); ok {
		t.Error("segment 1/2 of rate 1 is not idle")
	}
	e, _ = Of(Config{Executor: SharedIterations, VUs: 5, Iterations: 6}.Defaults())
	part, ok := e.Split(segmentShare(1, 4))
	if p := part.(SharedIterationsConfig); !ok || p.Iterations != 1 || p.VUs != 1 {
		t.Errorf("shared-iterations 1/4 of 6 iterations and 5 VUs = %+v, %v", p, ok)
	}
}

func TestCheckFields(t *testing.T) {
	tests := []struct {
		executor string
		keys     []string
		want     string
	}{
		{ConstantVUs, []string{"executor", "vus", "duration", "gracefulStop", "warmup"}, ""},
		{ConstantVUs, []string{"vus", "rate"}, `constant-vus has no option "rate" (its options: [gracefulStop warmup vus duration])`},
		{SharedIterations, []string{"iterations", "maxDuration", "vus"}, ""},
		{SharedIterations, []string{"duration"}, `shared-iterations has no option "duration"`},
		{RampingVUs, []string{"startVUs", "stages"}, ""},
		{RampingVUs, []string{"startRate"}, `ramping-vus has no option "startRate"`},
		{ConstantArrivalRate, []string{"rate", "timeUnit", "duration", "preAllocatedVUs", "maxVUs"}, ""},
		{RampingArrivalRate, []string{"startRate", "stages", "timeUnit", "preAllocatedVUs", "maxVUs"}, ""},
		{RampingArrivalRate, []string{"rate"}, `ramping-arrival-rate has no option "rate"`},
		{PerVUIterations, []string{"vus", "iterations", "maxDuration"}, ""},
		{"constant-vu", []string{"vus"}, `unknown executor "constant-vu"`},
	}
	for _, tt := range tests {
		err := CheckFields(tt.executor, tt.keys)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s %v: %v", tt.executor, tt.keys, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %v: error %v, want containing %q", tt.executor, tt.keys, err, tt.want)
		}
	}
}

// Every listed executor decodes to itself and accepts its own options.
func TestNames(t *testing.T) {
	for _, name := range Names() {
		e, err := Of(Config{Executor: name})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e.Name() != name {
			t.Errorf("Of(%s).Name() = %s", name, e.Name())
		}
		if err := CheckFields(name, append([]string{"executor"}, e.fields()...)); err != nil {
			t.Errorf("%s rejects its own options: %v", name, err)
		}
	}
}

// TestIdleRampValid: a ramp of 0 s at 0 VUs, which a user may not ask for
// (ValidateInput), is what an idle segment of an iteration-based scenario
// runs, so Validate takes it.
func TestIdleRampValid(t *testing.T) {
	c := Config{Executor: RampingVUs, Stages: []Stage{{0, 0}}}.Defaults()
	if err := c.Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
	if err := c.ValidateInput(); err == nil {
		t.Error("ValidateInput() took stages of no time")
	}
}
