package cli

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/engine"
	runsweep "github.com/stampede-bench/stampede/internal/run/sweep"
)

// TestSweepStepPlan: each step's plan is the run flags with the step's
// VUs, rate or target; the step's result directory and a single run.
func TestSweepStepPlan(t *testing.T) {
	parent := t.TempDir()
	step := func(dim, value string, vus, rate int64) runsweep.Step {
		st := runsweep.NewStep(parent, 2, dim, value)
		st.VUs, st.Rate = vus, rate
		return st
	}
	tests := []struct {
		name       string
		args       []string
		step       runsweep.Step
		wantConfig engine.Config
		wantTarget string
	}{
		{name: "vus with shared iterations", args: []string{"-i", "200"}, step: step(sweep.DimVUs, "7", 7, 0),
			wantConfig: engine.Config{Executor: engine.SharedIterations, VUs: 7, Iterations: 200}},
		{name: "rate keeps one VU value", args: []string{"-d", "3s"}, step: step(sweep.DimRate, "500", 20, 500),
			wantConfig: engine.Config{Executor: engine.ConstantArrivalRate, Rate: 500, PreAllocatedVUs: 20}},
		{name: "target", args: []string{"-i", "10", "-u", "3"}, step: step(sweep.DimTarget, "http://127.0.0.1:1/", 0, 0),
			wantConfig: engine.Config{Executor: engine.SharedIterations, VUs: 3, Iterations: 10}, wantTarget: "http://127.0.0.1:1/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
			rf, catalog := &runFlags{}, env.catalog()
			fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
			rf.register(fs, catalog)
			if err := fs.Parse(append([]string{"--repeat", "3"}, tt.args...)); err != nil {
				t.Fatal(err)
			}
			vus := rf.vus
			p, err := sweepStepPlan(env, sweepRun{flags: rf, fs: fs, catalog: catalog}, nil, []string{"http.Request"}, tt.step)
			if err != nil {
				t.Fatal(err)
			}
			c := p.Scenarios[0].Config
			w := tt.wantConfig
			if c.Executor != w.Executor || c.VUs != w.VUs || c.Iterations != w.Iterations || c.Rate != w.Rate || c.PreAllocatedVUs != w.PreAllocatedVUs {
				t.Errorf("executor %+v, want %+v", c, w)
			}
			if p.Out != filepath.Join(parent, filepath.Base(tt.step.Dir)) || p.Repeat != 1 || p.Target != tt.wantTarget {
				t.Errorf("plan out %s repeat %d target %q; want the step's directory, one run, target %q", p.Out, p.Repeat, p.Target, tt.wantTarget)
			}
			if rf.vus != vus || rf.repeat != 3 {
				t.Errorf("the step changed the sweep's run flags: vus %d repeat %d", rf.vus, rf.repeat)
			}
		})
	}
}
