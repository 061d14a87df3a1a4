package stampede_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede"
)

// secondsOutput counts the seconds it observes and notes the count on
// every scenario.
type secondsOutput struct{ seconds int }

func (*secondsOutput) Description() string         { return "" }
func (*secondsOutput) Start() error                { return nil }
func (o *secondsOutput) Observe(p *stampede.Point) { o.seconds++ }
func (*secondsOutput) Stop() error                 { return nil }
func (o *secondsOutput) Annotate(snap *stampede.Snapshot) {
	for _, sc := range snap.Scenarios {
		sc.Notes = stampede.AddNote(sc.Notes, fmt.Sprintf("seconds observed: %d", o.seconds))
	}
}

// ExampleOutputs adds an output of one's own to the registry and names
// it in the plan, as --out seconds= would.
func ExampleOutputs() {
	dir, err := os.MkdirTemp("", "stampede-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	out := &secondsOutput{}
	reg := stampede.Outputs()
	if err := reg.Add(stampede.OutputFactory{
		Name: "seconds", Usage: "seconds=",
		New: func(stampede.OutputParams) (stampede.Output, error) { return out, nil },
	}); err != nil {
		panic(err)
	}
	demo := stampede.NewFamily("demo", stampede.ScenarioDef{Name: "demo.Sum", Scenario: sumScenario{}})
	plan := stampede.Plan{
		Scenarios: []stampede.PlanScenario{{
			Name: "demo.Sum", Family: demo,
			Config: stampede.Config{Executor: stampede.SharedIterations, VUs: 2, Iterations: 100},
		}},
		Out:     filepath.Join(dir, "result"),
		Outputs: []stampede.OutputSpec{{Kind: "series"}, {Kind: "seconds"}},
	}
	deps := stampede.DefaultDeps(nil, os.Getenv)
	deps.Outputs = reg
	res, err := stampede.Execute(context.Background(), plan, deps)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.seconds > 0, res.Snapshot.Scenarios[0].Notes[len(res.Snapshot.Scenarios[0].Notes)-1] == fmt.Sprintf("seconds observed: %d", out.seconds))
	// Output:
	// true true
}
