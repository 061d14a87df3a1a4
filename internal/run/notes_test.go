package run

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/builtin"
	"github.com/stampede-bench/stampede/plan"
)

// notedFamily wraps builtin under another name, with a family note and a
// note for one of its scenarios.
type notedFamily struct {
	*builtin.Family
	name, note    string
	scenarioNotes map[string][]string
}

func (f *notedFamily) Name() string { return f.name }
func (f *notedFamily) Open(ctx context.Context, env *workload.Env, names []string) (*workload.Opened, error) {
	o, err := f.Family.Open(ctx, env, names)
	if err != nil {
		return nil, err
	}
	o.Notes = append(o.Notes, f.note)
	o.ScenarioNotes = f.scenarioNotes
	return o, nil
}

// TestNotesGoWhereTheyBelong: a family's notes go under its own scenarios
// only, its scenario notes under the scenario they name (the notes of one
// family used to be repeated under every scenario of the run: insert
// parameters under go.Go1Step). With execute.go giving every family's
// notes to every scenario, builtin.Sleep carries the other family's note.
func TestNotesGoWhereTheyBelong(t *testing.T) {
	a := &notedFamily{Family: builtin.New(builtin.DefaultOptions()), name: "a", note: "family a's target",
		scenarioNotes: map[string][]string{"builtin.Noop": {"parameters of builtin.Noop"}}}
	b := &notedFamily{Family: builtin.New(builtin.DefaultOptions()), name: "b", note: "family b's target"}
	cfg := engine.Config{Executor: engine.SharedIterations, VUs: 1, Iterations: 2}.Defaults()
	p := Plan{Plan: plan.Plan{
		Scenarios: []Scenario{
			{Name: "builtin.Noop", Family: a, Config: cfg},
			{Name: "builtin.Sleep", Family: b, Config: cfg},
		},
		Out: filepath.Join(t.TempDir(), "r"), Outputs: []OutputSpec{{Kind: outputs.Requests}, {Kind: outputs.Series}},
	}}
	res, err := Execute(context.Background(), p, testDeps())
	if err != nil {
		t.Fatal(err)
	}
	noop, sleep := res.Snapshot.Scenario("builtin.Noop"), res.Snapshot.Scenario("builtin.Sleep")
	if !slices.Contains(noop.Notes, "family a's target") || !slices.Contains(noop.Notes, "parameters of builtin.Noop") || slices.Contains(noop.Notes, "family b's target") {
		t.Errorf("builtin.Noop notes %q", noop.Notes)
	}
	if !slices.Contains(sleep.Notes, "family b's target") || slices.Contains(sleep.Notes, "family a's target") || slices.Contains(sleep.Notes, "parameters of builtin.Noop") {
		t.Errorf("builtin.Sleep notes %q", sleep.Notes)
	}
}
