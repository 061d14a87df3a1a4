package run

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/builtin"
	httpfam "github.com/stampede-bench/stampede/internal/workload/http"
	"github.com/stampede-bench/stampede/plan"
	"github.com/stampede-bench/stampede/vu"
)

// noopPlan is a plan of builtin.Noop, n iterations on 2 VUs, into dir.
func noopPlan(t *testing.T, dir string, n int64, thresholds ...string) Plan {
	t.Helper()
	ts, err := ParseThresholds(thresholds)
	if err != nil {
		t.Fatal(err)
	}
	return Plan{Plan: plan.Plan{
		Scenarios: []Scenario{{Name: "builtin.Noop", Family: builtin.New(builtin.DefaultOptions()),
			Config: engine.Config{Executor: engine.SharedIterations, VUs: 2, Iterations: n}.Defaults()}},
		Out: dir, Thresholds: ts, Outputs: []OutputSpec{{Kind: outputs.Requests}, {Kind: outputs.Series}},
	}}
}

func testDeps() Deps { return Deps{Deps: plan.Deps{Outputs: outputs.New()}} }

func TestExecuteWritesResultDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	plan := noopPlan(t, dir, 50, "iterations: count==50")
	plan.CommandLine = []string{"run", "builtin.Noop"}
	res, err := Execute(context.Background(), plan, testDeps())
	if err != nil {
		t.Fatal(err)
	}
	if res.Interrupted || res.ThresholdsFailed || len(res.Thresholds) != 1 {
		t.Errorf("result %+v", res)
	}
	if got := res.Snapshot.Scenarios[0].Counters["iterations"]; got != 50 {
		t.Errorf("iterations %d", got)
	}
	r, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Options.Args) != 2 || r.Options.Thresholds[0] != "iterations: count==50" || r.Options.Segment != "" {
		t.Errorf("options %+v", r.Options)
	}
	for _, f := range []string{resultdir.RequestsFile, resultdir.SummaryFile, resultdir.ConsoleFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if res.Tags["testid"] != "b" {
		t.Errorf("testid %q", res.Tags["testid"])
	}
	// The directory holds a run now: a second plan into it is refused.
	if _, err := Execute(context.Background(), plan, testDeps()); !usage.Is(err) {
		t.Errorf("second run into the same directory: %v", err)
	}
}

func TestExecuteThresholdFails(t *testing.T) {
	res, err := Execute(context.Background(), noopPlan(t, t.TempDir(), 10, "iterations: count>10"), testDeps())
	if err != nil || !res.ThresholdsFailed {
		t.Fatalf("%+v, %v", res, err)
	}
	plan := noopPlan(t, t.TempDir(), 10, "iterations: count>10")
	plan.NoThresholds = true
	if res, err := Execute(context.Background(), plan, testDeps()); err != nil || res.ThresholdsFailed || res.Thresholds != nil {
		t.Fatalf("--no-thresholds: %+v, %v", res, err)
	}
}

// TestExecuteFailsCleanly: bad input found before the engine starts is a
// usage error, and nothing is left behind.
func TestExecuteFailsCleanly(t *testing.T) {
	root := t.TempDir()
	for name, p := range map[string]Plan{
		"unknown metric":   noopPlan(t, filepath.Join(root, "m", "r"), 10, "nosuchmetric: count>0"),
		"no result dir":    noopPlan(t, "", 10),
		"invalid executor": {Plan: plan.Plan{Scenarios: []Scenario{{Name: "builtin.Noop", Family: builtin.New(builtin.DefaultOptions()), Config: engine.Config{Executor: "nope"}}}, Out: filepath.Join(root, "x")}},
		"no family":        {Plan: plan.Plan{Scenarios: []Scenario{{Name: "builtin.Noop", Config: engine.Config{Executor: engine.ConstantVUs, VUs: 1, Duration: time.Second}.Defaults()}}, Out: filepath.Join(root, "y")}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Execute(context.Background(), p, testDeps()); !usage.Is(err) {
				t.Errorf("err = %v, want a usage error", err)
			}
			if ents, _ := os.ReadDir(root); len(ents) != 0 {
				t.Errorf("left behind: %v", ents)
			}
		})
	}
}

// TestExecuteInterruptedWaiting: Ctrl+C while waiting for StartAt is an
// InterruptedError, and the result directory is removed again.
func TestExecuteInterruptedWaiting(t *testing.T) {
	root := t.TempDir()
	plan := noopPlan(t, filepath.Join(root, "r"), 10)
	plan.StartAt = time.Now().Add(time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := Execute(ctx, plan, testDeps())
	var ie *InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v", err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
	if plan.StartAt.IsZero() {
		t.Error("Execute changed the plan")
	}
}

func TestForRun(t *testing.T) {
	plan := noopPlan(t, "out", 10)
	plan.Repeat, plan.StartAt = 3, time.Now()
	first, second := plan.ForRun(1), plan.ForRun(2)
	if first.Out != filepath.Join("out", "run-01") || first.StartAt.IsZero() || first.Run != 1 {
		t.Errorf("run 1: %+v", first)
	}
	if second.Out != filepath.Join("out", "run-02") || !second.StartAt.IsZero() {
		t.Errorf("run 2 waits again: %+v", second)
	}
	if plan.Out != "out" || plan.Run != 0 {
		t.Errorf("ForRun changed the plan: %+v", plan)
	}
}

// forgetfulFamily opens none of the scenarios it is asked for.
type forgetfulFamily struct{ workload.Family }

func (f forgetfulFamily) Open(context.Context, *workload.Env, []string) (*workload.Opened, error) {
	return &workload.Opened{Scenarios: map[string]vu.Scenario{}}, nil
}

// TestExecuteRefusesUnopenedScenario: a scenario its family did not open
// fails the run before the result directory exists.
func TestExecuteRefusesUnopenedScenario(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	plan := noopPlan(t, dir, 5)
	plan.Scenarios[0].Family = forgetfulFamily{plan.Scenarios[0].Family}
	_, err := Execute(context.Background(), plan, testDeps())
	if err == nil || !strings.Contains(err.Error(), "did not open scenario builtin.Noop") {
		t.Fatalf("err = %v", err)
	}
	if _, serr := os.Stat(dir); !os.IsNotExist(serr) {
		t.Errorf("result directory made for a plan that failed: %v", serr)
	}
}

// TestExecuteFamiliesBringTheirDrivers: each family opens its targets
// with drivers of its own (the http family its
// HTTP driver), so a Go program links only those.
func TestExecuteFamiliesBringTheirDrivers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	p := Plan{Plan: plan.Plan{
		Scenarios: []Scenario{{Name: "http.Request", Family: httpfam.New(httpfam.DefaultOptions()),
			Config: engine.Config{Executor: engine.SharedIterations, VUs: 1, Iterations: 5}.Defaults()}},
		Target: srv.URL, Out: filepath.Join(t.TempDir(), "r"),
	}}
	res, err := Execute(context.Background(), p, Deps{Deps: plan.Deps{Outputs: outputs.New()}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Snapshot.Scenarios[0].Counters["requests"]; got != 5 {
		t.Errorf("requests %d, want 5", got)
	}
}
