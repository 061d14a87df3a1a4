package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	analysis "github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/redact"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/builtin"
	"github.com/stampede-bench/stampede/plan"
)

func TestNewStep(t *testing.T) {
	tests := []struct {
		dim, value string
		want       Step
		wantInfo   map[string]string
	}{
		{dim: analysis.DimVUs, value: "50",
			want:     Step{N: 2, Dim: "vus", Value: "50", Dir: "p/step-02-50", Description: "50 VUs"},
			wantInfo: map[string]string{"dimension": "vus", "value": "50", "step": "2"}},
		{dim: analysis.DimRate, value: "1000",
			want:     Step{N: 2, Dim: "rate", Value: "1000", Dir: "p/step-02-1000", Description: "rate 1000"},
			wantInfo: map[string]string{"dimension": "rate", "value": "1000", "step": "2"}},
		{dim: analysis.DimNodes, value: "3",
			want:     Step{N: 2, Dim: "nodes", Value: "3", Nodes: "3", Dir: "p/step-02-3", Description: "3 nodes"},
			wantInfo: map[string]string{"dimension": "nodes", "value": "3", "step": "2", "nodes": "3"}},
		{dim: analysis.DimTarget, value: "http://u:secret@10.0.0.2:8080/x",
			want: Step{N: 2, Dim: "target", Value: redact.URL("http://u:secret@10.0.0.2:8080/x"), Target: "http://u:secret@10.0.0.2:8080/x",
				Dir: "p/step-02-10.0.0.2_8080", Description: redact.URL("http://u:secret@10.0.0.2:8080/x")},
			wantInfo: map[string]string{"dimension": "target", "value": redact.URL("http://u:secret@10.0.0.2:8080/x"), "step": "2"}},
		{dim: analysis.DimTarget, value: "sqlite:///tmp/db",
			want:     Step{N: 2, Dim: "target", Value: "sqlite:///tmp/db", Target: "sqlite:///tmp/db", Dir: "p/step-02-target", Description: "sqlite:///tmp/db"},
			wantInfo: map[string]string{"dimension": "target", "value": "sqlite:///tmp/db", "step": "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.dim+" "+tt.value, func(t *testing.T) {
			got := NewStep("p", 2, tt.dim, tt.value)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("NewStep = %+v\nwant      %+v", got, tt.want)
			}
			if info := got.Info(); !reflect.DeepEqual(info, tt.wantInfo) {
				t.Errorf("Info = %v, want %v", info, tt.wantInfo)
			}
			if strings.Contains(got.Value+got.Description+got.Dir, "secret") {
				t.Errorf("credentials in %+v", got)
			}
		})
	}
}

// noopRunner runs builtin.Noop, 40 iterations on the step's VUs.
func noopRunner(stdout, stderr *bytes.Buffer, plans *[]run.Plan) Runner {
	fam := builtin.New(builtin.DefaultOptions())
	return Runner{
		Plan: func(st Step) (run.Plan, error) {
			p := run.Plan{Plan: plan.Plan{
				Scenarios: []run.Scenario{{Name: "builtin.Noop", Family: fam,
					Config: engine.Config{Executor: engine.SharedIterations, VUs: st.VUs, Iterations: 40}.Defaults()}},
				Outputs: []run.OutputSpec{{Kind: outputs.Series}}, Out: "elsewhere",
			}}
			*plans = append(*plans, p)
			return p, nil
		},
		Deps:   run.Deps{Deps: plan.Deps{Outputs: outputs.New()}},
		Stdout: stdout, Stderr: stderr,
	}
}

func vuSweep(parent string, vus ...int64) Sweep {
	sw := Sweep{Parent: parent, Rule: analysis.DefaultRule}
	for i, n := range vus {
		st := NewStep(parent, i+1, analysis.DimVUs, strconv.FormatInt(n, 10))
		st.VUs = n
		sw.Steps = append(sw.Steps, st)
	}
	return sw
}

// TestExecute runs two steps and checks what the steps and the analysis
// wrote.
func TestExecute(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "sw")
	var stdout, stderr bytes.Buffer
	var plans []run.Plan
	started := 0
	r := noopRunner(&stdout, &stderr, &plans)
	r.Started = func() (func(), error) { started++; return func() {}, nil }
	shown := 0
	r.Show = func(*run.Result) error { shown++; return nil }
	out, err := Execute(context.Background(), vuSweep(parent, 1, 2), r)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	want := []string{filepath.Join(parent, "step-01-1"), filepath.Join(parent, "step-02-2")}
	if !reflect.DeepEqual(out.Done, want) || out.ThresholdsFailed {
		t.Errorf("outcome %+v, want %v done", out, want)
	}
	if started != 2 || shown != 2 {
		t.Errorf("Started %d times, Show %d times; want 2 and 2", started, shown)
	}
	res, err := resultdir.Load(want[1])
	if err != nil {
		t.Fatal(err)
	}
	if w := map[string]string{"dimension": "vus", "value": "2", "step": "2"}; !reflect.DeepEqual(res.Options.Sweep, w) {
		t.Errorf("options.json sweep = %v, want %v", res.Options.Sweep, w)
	}
	for _, f := range []string{TableFile, JSONFile} {
		if _, err := os.Stat(filepath.Join(parent, f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(parent, resultdir.ReportFile)); err != nil {
		t.Errorf("no report.html: %v", err)
	}
	var a analysis.Analysis
	b, _ := os.ReadFile(filepath.Join(parent, JSONFile))
	if err := json.Unmarshal(b, &a); err != nil || a.Dimension != "vus" || len(a.Curves) != 1 || len(a.Curves[0].Points) != 2 {
		t.Errorf("sweep.json: %v %+v", err, a)
	}
	table, _ := os.ReadFile(filepath.Join(parent, TableFile))
	if !strings.Contains(stdout.String(), string(table)) || !strings.Contains(string(table), "builtin.Noop — VU sweep") {
		t.Errorf("stdout %q lacks the table %q", stdout.String(), table)
	}
	for _, line := range []string{"sweep: 2 steps of vus into " + parent, "=== sweep step 2 of 2: 2 VUs → " + want[1], "sweep analysis: "} {
		if !strings.Contains(stderr.String(), line) {
			t.Errorf("stderr lacks %q:\n%s", line, stderr.String())
		}
	}
	if len(plans) != 2 || plans[0].Out != "elsewhere" {
		t.Errorf("Execute changed the plans Runner.Plan returned: %+v", plans)
	}
}

func TestExecuteQuiet(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "sw")
	var stdout, stderr bytes.Buffer
	var plans []run.Plan
	r := noopRunner(&stdout, &stderr, &plans)
	r.Quiet = true
	sw := vuSweep(parent, 1)
	sw.NoReport = true
	if _, err := Execute(context.Background(), sw, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), "===") || strings.Contains(stderr.String(), "sweep: ") {
		t.Errorf("quiet sweep announced its steps:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(parent, resultdir.ReportFile)); !os.IsNotExist(err) {
		t.Errorf("NoReport wrote report.html: %v", err)
	}
}

func TestHook(t *testing.T) {
	t.Run("substitutes and exports the step", func(t *testing.T) {
		parent := filepath.Join(t.TempDir(), "sw")
		var stdout, stderr bytes.Buffer
		var plans []run.Plan
		sw := vuSweep(parent, 1, 2)
		sw.Steps[1].Nodes, sw.Steps[1].Target = "5", "http://h/"
		sw.BeforeStep = `echo "hook {step} {value} {nodes} {target}|$SWEEP_STEP $SWEEP_VALUE $SWEEP_NODES $SWEEP_TARGET"`
		sw.HookTimeout = time.Minute
		if _, err := Execute(context.Background(), sw, noopRunner(&stdout, &stderr, &plans)); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"hook 2 2 5 http://h/|2 2 5 http://h/", "=== before step 1 (1 VUs): echo"} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
			}
		}
	})
	t.Run("a failing hook ends the sweep, the done steps are analysed", func(t *testing.T) {
		parent := filepath.Join(t.TempDir(), "sw")
		var stdout, stderr bytes.Buffer
		var plans []run.Plan
		sw := vuSweep(parent, 1, 2, 3)
		sw.BeforeStep, sw.HookTimeout = "test {step} -lt 3", time.Minute
		out, err := Execute(context.Background(), sw, noopRunner(&stdout, &stderr, &plans))
		if err == nil || usage.Is(err) || !strings.HasPrefix(err.Error(), "sweep: --before-step for 3 VUs failed: ") ||
			!strings.HasSuffix(err.Error(), "; 2 of 3 steps done, kept in "+parent) {
			t.Fatalf("err = %v", err)
		}
		if len(out.Done) != 2 || len(plans) != 2 {
			t.Errorf("done %v after %d plans, want 2 and 2", out.Done, len(plans))
		}
		if _, err := os.Stat(filepath.Join(parent, JSONFile)); err != nil {
			t.Errorf("the done steps were not analysed: %v", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		parent := filepath.Join(t.TempDir(), "sw")
		var stdout, stderr bytes.Buffer
		var plans []run.Plan
		sw := vuSweep(parent, 1)
		sw.BeforeStep, sw.HookTimeout = "sleep 30", 200*time.Millisecond
		start := time.Now()
		out, err := Execute(context.Background(), sw, noopRunner(&stdout, &stderr, &plans))
		if err == nil || !strings.Contains(err.Error(), `"sleep 30" did not finish within 200ms (--before-step-timeout)`) {
			t.Fatalf("err = %v", err)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("the hook was stopped after %s", took)
		}
		if len(out.Done) != 0 || len(plans) != 0 {
			t.Errorf("a step ran after the hook timed out: %v", out.Done)
		}
		if _, err := os.Stat(parent); !os.IsNotExist(err) {
			t.Errorf("nothing ran, yet %s exists: %v", parent, err)
		}
	})
}

func TestExecuteErrors(t *testing.T) {
	t.Run("bad input of the first step is returned as it is", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		var plans []run.Plan
		r := noopRunner(&stdout, &stderr, &plans)
		bad := usage.Errorf("--vus: no")
		r.Plan = func(Step) (run.Plan, error) { return run.Plan{}, bad }
		_, err := Execute(context.Background(), vuSweep(filepath.Join(t.TempDir(), "sw"), 1, 2), r)
		if err != bad {
			t.Fatalf("err = %v, want the plan's", err)
		}
	})
	t.Run("a failing later step says how far the sweep got", func(t *testing.T) {
		parent := filepath.Join(t.TempDir(), "sw")
		var stdout, stderr bytes.Buffer
		var plans []run.Plan
		r := noopRunner(&stdout, &stderr, &plans)
		plan, boom := r.Plan, errors.New("boom")
		r.Plan = func(st Step) (run.Plan, error) {
			if st.N == 2 {
				return run.Plan{}, boom
			}
			return plan(st)
		}
		out, err := Execute(context.Background(), vuSweep(parent, 1, 2), r)
		if !errors.Is(err, boom) || err.Error() != "sweep step 2 (2 VUs): boom; 1 of 2 steps done, kept in "+parent {
			t.Fatalf("err = %v", err)
		}
		if len(out.Done) != 1 {
			t.Errorf("done %v", out.Done)
		}
	})
	t.Run("failed thresholds do not stop the sweep", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		var plans []run.Plan
		r := noopRunner(&stdout, &stderr, &plans)
		plan := r.Plan
		r.Plan = func(st Step) (run.Plan, error) {
			p, err := plan(st)
			p.Thresholds, _ = run.ParseThresholds([]string{"iterations: count>1000"})
			return p, err
		}
		out, err := Execute(context.Background(), vuSweep(filepath.Join(t.TempDir(), "sw"), 1, 2), r)
		if err != nil || !out.ThresholdsFailed || len(out.Done) != 2 {
			t.Fatalf("outcome %+v, err %v; want both steps done, thresholds failed", out, err)
		}
	})
	t.Run("interrupted before a step", func(t *testing.T) {
		parent := filepath.Join(t.TempDir(), "sw")
		var stdout, stderr bytes.Buffer
		var plans []run.Plan
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := Execute(ctx, vuSweep(parent, 1, 2), noopRunner(&stdout, &stderr, &plans))
		var ie *run.InterruptedError
		if !errors.As(err, &ie) || ie.Msg != "interrupted: 0 of 2 steps done, kept in "+parent {
			t.Fatalf("err = %v, want an interruption", err)
		}
	})
	t.Run("memory", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		var plans []run.Plan
		r := noopRunner(&stdout, &stderr, &plans)
		r.AvailableMemory = func() int64 { return 1 << 20 }
		_, err := Execute(context.Background(), vuSweep(filepath.Join(t.TempDir(), "sw"), 1), r)
		if !usage.Is(err) || !strings.Contains(err.Error(), "VUs fit") {
			t.Fatalf("err = %v, want the memory plan's usage error", err)
		}
	})
}

func TestAnalyseNoSweep(t *testing.T) {
	dir := t.TempDir()
	res, err := run.Execute(context.Background(), run.Plan{Plan: plan.Plan{
		Scenarios: []run.Scenario{{Name: "builtin.Noop", Family: builtin.New(builtin.DefaultOptions()),
			Config: engine.Config{Executor: engine.SharedIterations, VUs: 1, Iterations: 5}.Defaults()}},
		Out: filepath.Join(dir, "r"), Outputs: []run.OutputSpec{{Kind: outputs.Series}},
	}}, run.Deps{Deps: plan.Deps{Outputs: outputs.New()}})
	if err != nil || res == nil {
		t.Fatal(err)
	}
	err = Analyse(dir, []string{filepath.Join(dir, "r")}, analysis.DefaultRule, true, nil, nil)
	if !usage.Is(err) || !strings.Contains(err.Error(), "holds no sweep steps") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, JSONFile)); !os.IsNotExist(err) {
		t.Errorf("sweep.json written for no sweep: %v", err)
	}
}
