package cli

import (
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
)

// The k6 shortcuts: which executor the flags describe.
func TestExecutorFromFlags(t *testing.T) {
	tests := []struct {
		name    string
		flags   map[string]string
		want    engine.Config
		wantErr bool
	}{
		{"defaults: constant-vus", nil, engine.Config{Executor: engine.ConstantVUs, VUs: 50, Duration: 10 * time.Second}, false},
		{"-i: shared-iterations, VUs capped at iterations", map[string]string{"iterations": "10"}, engine.Config{Executor: engine.SharedIterations, VUs: 10, Iterations: 10, MaxDuration: 10 * time.Minute}, false},
		{"-i with -d bounds the run", map[string]string{"iterations": "100", "vus": "5", "duration": "30s"}, engine.Config{Executor: engine.SharedIterations, VUs: 5, Iterations: 100, MaxDuration: 30 * time.Second}, false},
		{"--rate: constant-arrival-rate, maxVUs 4×vus", map[string]string{"rate": "1000", "vus": "20"}, engine.Config{Executor: engine.ConstantArrivalRate, Rate: 1000, Duration: 10 * time.Second, PreAllocatedVUs: 20, MaxVUs: 80}, false},
		{"-s: ramping-vus", map[string]string{"stage": "10s:100"}, engine.Config{Executor: engine.RampingVUs, Stages: []engine.Stage{{Duration: 10 * time.Second, Target: 100}}}, false},
		{"-s with --rate: ramping-arrival-rate", map[string]string{"stage": "10s:500", "rate": "1"}, engine.Config{Executor: engine.RampingArrivalRate, Rate: 1, Stages: []engine.Stage{{Duration: 10 * time.Second, Target: 500}}, PreAllocatedVUs: 50, MaxVUs: 200}, false},
		{"explicit per-vu-iterations", map[string]string{"executor": "per-vu-iterations", "iterations": "3", "vus": "2"}, engine.Config{Executor: engine.PerVUIterations, VUs: 2, Iterations: 3, MaxDuration: 10 * time.Minute}, false},
		{"ramping-arrival-rate without stages", map[string]string{"executor": "ramping-arrival-rate", "rate": "10"}, engine.Config{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := newRunCmd(&Env{Getenv: func(string) string { return "" }})
			fs := cmd.Flags()
			for k, v := range tc.flags {
				if err := fs.Set(k, v); err != nil {
					t.Fatal(err)
				}
			}
			f := &runFlags{}
			f.vus, _ = fs.GetInt64("vus")
			f.duration, _ = fs.GetDuration("duration")
			f.iterations, _ = fs.GetInt64("iterations")
			f.rate, _ = fs.GetInt64("rate")
			f.timeUnit, _ = fs.GetDuration("time-unit")
			f.maxVUs, _ = fs.GetInt64("max-vus")
			f.stages, _ = fs.GetStringArray("stage")
			f.executor, _ = fs.GetString("executor")
			f.gracefulStp, _ = fs.GetDuration("graceful-stop")
			got, err := executorFromFlags(f, fs.Changed)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			want := tc.want.Defaults()
			want.GracefulStop = 30 * time.Second
			if got.Executor != want.Executor || got.VUs != want.VUs || got.Iterations != want.Iterations ||
				got.Duration != want.Duration || got.MaxDuration != want.MaxDuration || got.Rate != want.Rate ||
				got.PreAllocatedVUs != want.PreAllocatedVUs || got.MaxVUs != want.MaxVUs || len(got.Stages) != len(want.Stages) {
				t.Errorf("got %+v\nwant %+v", got, want)
			}
		})
	}
}
