package executor

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestShortcuts(t *testing.T) {
	base := Shortcuts{VUs: 50, Duration: 10 * time.Second, TimeUnit: time.Second, GracefulStop: 30 * time.Second}
	with := func(f func(*Shortcuts)) Shortcuts { s := base; f(&s); return s }
	tests := []struct {
		name    string
		s       Shortcuts
		want    Config // before defaults
		wantErr string
	}{
		{"constant-vus", base, Config{Executor: ConstantVUs, VUs: 50, Duration: 10 * time.Second}, ""},
		{"iterations alone: VUs capped", with(func(s *Shortcuts) { s.Iterations, s.IterationsSet = 10, true }),
			Config{Executor: SharedIterations, VUs: 10, Iterations: 10, MaxDuration: 10 * time.Minute}, ""},
		{"iterations with -d and -u", with(func(s *Shortcuts) {
			s.Iterations, s.IterationsSet, s.VUs, s.VUsSet, s.DurationSet = 100, true, 5, true, true
		}), Config{Executor: SharedIterations, VUs: 5, Iterations: 100, MaxDuration: 10 * time.Second}, ""},
		{"rate: 4×VUs at most", with(func(s *Shortcuts) { s.Rate, s.RateSet, s.VUs = 1000, true, 20 }),
			Config{Executor: ConstantArrivalRate, Rate: 1000, Duration: 10 * time.Second, PreAllocatedVUs: 20, MaxVUs: 80}, ""},
		{"stages: ramping-vus from -u", with(func(s *Shortcuts) { s.Stages, s.VUsSet, s.VUs = []Stage{{time.Second, 9}}, true, 3 }),
			Config{Executor: RampingVUs, StartVUs: 3, Stages: []Stage{{time.Second, 9}}}, ""},
		{"stages and rate: ramping-arrival-rate keeps the rate", with(func(s *Shortcuts) {
			s.Stages, s.Rate, s.RateSet, s.MaxVUs = []Stage{{time.Second, 500}}, 1, true, 60
		}), Config{Executor: RampingArrivalRate, Rate: 1, Stages: []Stage{{time.Second, 500}}, PreAllocatedVUs: 50, MaxVUs: 60}, ""},
		{"per-vu-iterations needs iterations", with(func(s *Shortcuts) { s.Executor = PerVUIterations }),
			Config{}, "per-vu-iterations needs -i/--iterations"},
		{"ramping-arrival-rate needs stages", with(func(s *Shortcuts) { s.Executor, s.Rate, s.RateSet = RampingArrivalRate, 5, true }),
			Config{}, "ramping-arrival-rate needs --stage DURATION:RATE"},
		{"stages only for ramping", with(func(s *Shortcuts) { s.Executor, s.Stages = ConstantVUs, []Stage{{time.Second, 2}} }),
			Config{}, "--stage only applies to ramping-vus and ramping-arrival-rate, not constant-vus"},
		{"validation on one line", with(func(s *Shortcuts) { s.VUs, s.Duration = -1, 0 }),
			Config{}, "constant-vus needs vus ≥ 1; constant-vus needs a duration > 0"},
		{"unknown executor", with(func(s *Shortcuts) { s.Executor = "warp" }), Config{}, `unknown executor "warp"`},
		{"rate only for arrival rates", with(func(s *Shortcuts) {
			s.Executor, s.Iterations, s.IterationsSet, s.Rate, s.RateSet = PerVUIterations, 2, true, 10, true
		}), Config{}, "--rate only applies to constant-arrival-rate and ramping-arrival-rate, not per-vu-iterations"},
		{"max-vus only for arrival rates", with(func(s *Shortcuts) { s.Stages, s.MaxVUs = []Stage{{time.Second, 2}}, 5 }),
			Config{}, "--max-vus only applies to constant-arrival-rate and ramping-arrival-rate, not ramping-vus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.s.Config()
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.TimeUnit, want.GracefulStop = time.Second, 30*time.Second
			want = want.Defaults()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}
