package executor

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseSegment(t *testing.T) {
	tests := []struct {
		in      string
		want    Segment
		wantErr string
	}{
		{in: "1/1", want: Segment{1, 1}},
		{in: "2/4", want: Segment{2, 4}},
		{in: " 4 / 4 ", want: Segment{4, 4}},
		{in: "0/4", wantErr: "count from 1"},
		{in: "5/4", wantErr: "between 1 and N"},
		{in: "1/0", wantErr: "N must be"},
		{in: "-1/4", wantErr: "between 1 and N"},
		{in: "2", wantErr: "want i/N"},
		{in: "a/b", wantErr: "whole numbers"},
		{in: "1/2000000", wantErr: "N must be"},
		{in: "", wantErr: "want i/N"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSegment(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseSegment(%q) error = %v, want containing %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseSegment(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
			if got.String() != strings.ReplaceAll(tt.in, " ", "") {
				t.Errorf("String() = %q", got.String())
			}
		})
	}
}

// TestShareSums checks that the shares of every x over N = 1..10 segments
// add up to x exactly and differ by at most one.
func TestShareSums(t *testing.T) {
	xs := []int64{0, 1, 2, 3, 5, 7, 9, 10, 11, 49, 50, 99, 100, 101, 333, 1000, 1_000_003, math.MaxInt64 / 2}
	for n := 1; n <= 10; n++ {
		for _, x := range xs {
			var sum int64
			lo, hi := int64(math.MaxInt64), int64(-1)
			for i := 1; i <= n; i++ {
				sh := Segment{i, n}.Share(x)
				if sh < 0 {
					t.Fatalf("x=%d %d/%d: negative share %d", x, i, n, sh)
				}
				sum += sh
				lo, hi = min(lo, sh), max(hi, sh)
			}
			if sum != x {
				t.Errorf("x=%d N=%d: shares sum to %d", x, n, sum)
			}
			if hi-lo > 1 {
				t.Errorf("x=%d N=%d: shares range %d..%d, want within 1", x, n, lo, hi)
			}
		}
	}
}

func TestShareCases(t *testing.T) {
	tests := []struct {
		name string
		x    int64
		n    int
		want []int64
	}{
		{"one VU goes to the first segment", 1, 4, []int64{1, 0, 0, 0}},
		{"extra units go first", 10, 4, []int64{3, 2, 3, 2}},
		{"even split", 100, 4, []int64{25, 25, 25, 25}},
		{"more segments than units", 3, 5, []int64{1, 1, 0, 1, 0}},
		{"zero", 0, 3, []int64{0, 0, 0}},
		{"whole", 7, 1, []int64{7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, w := range tt.want {
				if got := (Segment{i + 1, tt.n}).Share(tt.x); got != w {
					t.Errorf("share %d/%d of %d = %d, want %d", i+1, tt.n, tt.x, got, w)
				}
			}
		})
	}
}

func cfg(c Config) Config { return c.Defaults() }

var executors = []struct {
	name string
	c    Config
}{
	{"constant-vus", cfg(Config{Executor: ConstantVUs, VUs: 50, Duration: 10 * time.Second})},
	{"constant-vus 3", cfg(Config{Executor: ConstantVUs, VUs: 3, Duration: 10 * time.Second})},
	{"per-vu-iterations", cfg(Config{Executor: PerVUIterations, VUs: 7, Iterations: 13})},
	{"shared-iterations", cfg(Config{Executor: SharedIterations, VUs: 10, Iterations: 1001})},
	{"shared-iterations few", cfg(Config{Executor: SharedIterations, VUs: 2, Iterations: 3})},
	{"shared-iterations one", cfg(Config{Executor: SharedIterations, VUs: 1, Iterations: 1})},
	{"ramping-vus", cfg(Config{Executor: RampingVUs, StartVUs: 5, Stages: []Stage{
		{Duration: 10 * time.Second, Target: 100}, {Duration: 20 * time.Second, Target: 33}, {Duration: 5 * time.Second, Target: 0}}})},
	{"constant-arrival-rate", cfg(Config{Executor: ConstantArrivalRate, Rate: 1000, Duration: 10 * time.Second, PreAllocatedVUs: 10, MaxVUs: 40})},
	{"constant-arrival-rate slow", cfg(Config{Executor: ConstantArrivalRate, Rate: 7, TimeUnit: time.Minute, Duration: 30 * time.Minute, PreAllocatedVUs: 1, MaxVUs: 2})},
	{"ramping-arrival-rate", cfg(Config{Executor: RampingArrivalRate, StartRate: 50, PreAllocatedVUs: 20, MaxVUs: 100, Stages: []Stage{
		{Duration: 10 * time.Second, Target: 2000}, {Duration: 30 * time.Second, Target: 2000}, {Duration: 10 * time.Second, Target: 0}}})},
}

// TestApplyValidSumsExact: every segment of every executor validates, and
// the planned iterations of the N segments add up to the whole: exactly
// for iteration-based executors, within 1% for arrival rates.
func TestApplyValidSumsExact(t *testing.T) {
	for _, ex := range executors {
		for n := 1; n <= 10; n++ {
			whole := planned(ex.c)
			var sum float64
			var parts []Config
			for i := 1; i <= n; i++ {
				part, idle := Segment{i, n}.Apply(ex.c)
				if err := part.Validate(); err != nil {
					t.Fatalf("%s %d/%d: %v (config %+v)", ex.name, i, n, err, part)
				}
				if idle != IsIdle(part) {
					t.Errorf("%s %d/%d: idle=%v but IsIdle=%v", ex.name, i, n, idle, IsIdle(part))
				}
				if part.TotalDuration() != ex.c.TotalDuration() && !(idle && part.TotalDuration() == 0) {
					t.Errorf("%s %d/%d: duration %s, want %s", ex.name, i, n, part.TotalDuration(), ex.c.TotalDuration())
				}
				sum += planned(part)
				parts = append(parts, part)
			}
			switch ex.c.Executor {
			case ConstantArrivalRate, RampingArrivalRate:
				if math.Abs(sum-whole) > 0.01*whole {
					t.Errorf("%s N=%d: segments plan %.0f iterations, whole %.0f (> 1%% off)", ex.name, n, sum, whole)
				}
			default:
				if sum != whole {
					t.Errorf("%s N=%d: segments plan %.0f iterations, whole %.0f", ex.name, n, sum, whole)
				}
			}
			back, err := Combine(parts)
			if err != nil {
				t.Fatalf("%s N=%d: Combine: %v", ex.name, n, err)
			}
			if back.MaxVUs > ex.c.MaxVUs { // raised to 1 per segment with a rate
				back.MaxVUs = ex.c.MaxVUs
			}
			if ex.c.Executor != SharedIterations && !equalConfig(back, ex.c) {
				t.Errorf("%s N=%d: Combine = %+v, want %+v", ex.name, n, back, ex.c)
			}
		}
	}
}

func equalConfig(a, b Config) bool {
	if len(a.Stages) != len(b.Stages) {
		return false
	}
	for i := range a.Stages {
		if a.Stages[i] != b.Stages[i] {
			return false
		}
	}
	a.Stages, b.Stages = nil, nil
	return reflect.DeepEqual(a, b)
}

func TestApplyVUSums(t *testing.T) {
	for _, ex := range executors {
		for n := 1; n <= 10; n++ {
			var vus, maxVUs int64
			for i := 1; i <= n; i++ {
				part, _ := Segment{i, n}.Apply(ex.c)
				if IsIdle(part) && !IsIdle(ex.c) {
					continue
				}
				vus += part.VUs + part.StartVUs + part.PreAllocatedVUs
				maxVUs += part.MaxVUs
			}
			want := ex.c.VUs + ex.c.StartVUs + ex.c.PreAllocatedVUs
			switch ex.c.Executor {
			case SharedIterations:
				continue // clamped, see Apply
			case ConstantArrivalRate, RampingArrivalRate:
				if maxVUs < ex.c.MaxVUs {
					t.Errorf("%s N=%d: maxVUs sum %d < %d", ex.name, n, maxVUs, ex.c.MaxVUs)
				}
				if vus > want {
					t.Errorf("%s N=%d: preallocated sum %d > %d", ex.name, n, vus, want)
				}
				continue
			}
			if vus != want {
				t.Errorf("%s N=%d: VUs sum %d, want %d", ex.name, n, vus, want)
			}
		}
	}
}

func TestApplyEdgeCases(t *testing.T) {
	tests := []struct {
		name     string
		c        Config
		seg      Segment
		wantIdle bool
		check    func(t *testing.T, c Config)
	}{
		{name: "more segments than VUs: idle keeps the duration", seg: Segment{2, 4},
			c: cfg(Config{Executor: ConstantVUs, VUs: 2, Duration: 10 * time.Second}), wantIdle: true,
			check: func(t *testing.T, c Config) {
				if c.TotalDuration() != 10*time.Second || c.MaxVUsNeeded() != 0 {
					t.Errorf("idle config %+v", c)
				}
			}},
		{name: "idle iteration executor takes no time", seg: Segment{2, 2},
			c: cfg(Config{Executor: SharedIterations, VUs: 1, Iterations: 1}), wantIdle: true,
			check: func(t *testing.T, c Config) {
				if c.TotalDuration() != 0 {
					t.Errorf("idle duration %s", c.TotalDuration())
				}
			}},
		{name: "shared iterations: a segment with iterations gets a VU", seg: Segment{2, 5},
			c: cfg(Config{Executor: SharedIterations, VUs: 2, Iterations: 3}),
			check: func(t *testing.T, c Config) {
				if c.Iterations != 1 || c.VUs != 1 {
					t.Errorf("vus %d iterations %d, want 1 and 1", c.VUs, c.Iterations)
				}
			}},
		{name: "shared iterations: no iterations, no VU", seg: Segment{3, 5},
			c:        cfg(Config{Executor: SharedIterations, VUs: 2, Iterations: 3}),
			wantIdle: true},
		{name: "arrival rate with rate share gets a VU", seg: Segment{2, 4},
			c: cfg(Config{Executor: ConstantArrivalRate, Rate: 100, Duration: time.Second, PreAllocatedVUs: 1, MaxVUs: 1}),
			check: func(t *testing.T, c Config) {
				if c.Rate != 25 || c.MaxVUs != 1 || c.PreAllocatedVUs != 0 {
					t.Errorf("got rate %d pre %d max %d", c.Rate, c.PreAllocatedVUs, c.MaxVUs)
				}
			}},
		{name: "arrival rate below N", seg: Segment{2, 4},
			c:        cfg(Config{Executor: ConstantArrivalRate, Rate: 1, Duration: time.Second, PreAllocatedVUs: 1, MaxVUs: 1}),
			wantIdle: true},
		{name: "whole is unchanged", seg: Segment{Index: 1, Count: 1},
			c: cfg(Config{Executor: ConstantVUs, VUs: 1, Duration: time.Second}),
			check: func(t *testing.T, c Config) {
				if c.VUs != 1 {
					t.Errorf("vus %d", c.VUs)
				}
			}},
		{name: "input stages are not modified", seg: Segment{1, 2},
			c: cfg(Config{Executor: RampingVUs, Stages: []Stage{{Duration: time.Second, Target: 10}}}),
			check: func(t *testing.T, c Config) {
				if c.Stages[0].Target != 5 {
					t.Errorf("target %d", c.Stages[0].Target)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := tt.c
			origStages := append([]Stage(nil), tt.c.Stages...)
			got, idle := tt.seg.Apply(tt.c)
			if idle != tt.wantIdle {
				t.Fatalf("idle = %v, want %v (%+v)", idle, tt.wantIdle, got)
			}
			if err := got.Validate(); err != nil {
				t.Fatalf("invalid: %v", err)
			}
			for i := range origStages {
				if orig.Stages[i] != origStages[i] {
					t.Fatalf("Apply modified its input's stages")
				}
			}
			if tt.check != nil {
				tt.check(t, got)
			}
		})
	}
}

func TestCombineMismatch(t *testing.T) {
	a := cfg(Config{Executor: ConstantVUs, VUs: 2, Duration: time.Second})
	b := cfg(Config{Executor: ConstantArrivalRate, Rate: 2, Duration: time.Second})
	if _, err := Combine([]Config{a, b}); err == nil {
		t.Fatal("Combine of different executors succeeded")
	}
	r1 := cfg(Config{Executor: RampingVUs, Stages: []Stage{{Duration: time.Second, Target: 1}}})
	r2 := cfg(Config{Executor: RampingVUs, Stages: []Stage{{Duration: 2 * time.Second, Target: 1}}})
	if _, err := Combine([]Config{r1, r2}); err == nil {
		t.Fatal("Combine of different stage durations succeeded")
	}
	idle := Idle(a)
	if got, err := Combine([]Config{idle, idle}); err != nil || !IsIdle(got) {
		t.Fatalf("Combine of idle parts = %+v, %v", got, err)
	}
}

// planned is how many iterations c schedules: exact for iteration-based
// executors; for arrival rates it counts the intended starts the way the
// engine's schedule does. Duration-based closed executors return their
// VU-seconds (a proxy that must add up the same way).
func planned(c Config) float64 {
	switch c.Executor {
	case PerVUIterations:
		return float64(c.VUs * c.Iterations)
	case SharedIterations:
		return float64(c.Iterations)
	case ConstantVUs:
		return float64(c.VUs) * c.Duration.Seconds()
	case RampingVUs:
		var area float64
		from := float64(c.StartVUs)
		for _, s := range c.Stages {
			area += (from + float64(s.Target)) / 2 * s.Duration.Seconds()
			from = float64(s.Target)
		}
		return area
	case ConstantArrivalRate:
		// k/rate < duration for k = 0, 1, ...: ceil(rate·duration/unit).
		return math.Ceil(float64(c.Rate) * float64(c.Duration) / float64(c.TimeUnit))
	case RampingArrivalRate:
		var k, segCount float64
		from := float64(c.StartRate) / float64(c.TimeUnit)
		for _, s := range c.Stages {
			to := float64(s.Target) / float64(c.TimeUnit)
			n := (from + to) / 2 * float64(s.Duration)
			for k-segCount < n {
				k++
			}
			segCount += n
			from = to
		}
		return k
	}
	return 0
}
