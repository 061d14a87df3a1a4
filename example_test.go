package stampede_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede"
)

// sumScenario times an in-process function: summing a slice.
type sumScenario struct{}

func (sumScenario) NewVU(context.Context, int) (stampede.VU, error) {
	return &sumVU{data: make([]int, 1000)}, nil
}

type sumVU struct{ data []int }

func (v *sumVU) Iterate(_ context.Context, it stampede.Iteration) error {
	start := it.Now()
	total := 0
	for _, x := range v.data {
		total += x
	}
	it.RecordRequest("sum", start, stampede.Outcome{Rows: int64(len(v.data))})
	it.RecordCheck(total == 0)
	return nil
}

func (v *sumVU) Close() error { return nil }

// Example runs a scenario written in Go from Go: 100 iterations shared by
// two VUs, with a threshold, into a result directory.
func Example() {
	dir, err := os.MkdirTemp("", "stampede-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	demo := stampede.NewFamily("demo", stampede.ScenarioDef{
		Name: "demo.Sum", Description: "sum 1000 integers in process", Scenario: sumScenario{},
	})
	thresholds, err := stampede.ParseThresholds("checks: rate==1", "responseTime: p(99)<1000")
	if err != nil {
		panic(err)
	}
	plan := stampede.Plan{
		Scenarios: []stampede.PlanScenario{{
			Name: "demo.Sum", Family: demo,
			Config: stampede.Config{Executor: stampede.SharedIterations, VUs: 2, Iterations: 100},
		}},
		Out:        filepath.Join(dir, "result"),
		Outputs:    []stampede.OutputSpec{{Kind: "series"}},
		Thresholds: thresholds,
	}
	res, err := stampede.Execute(context.Background(), plan, stampede.DefaultDeps(nil, os.Getenv))
	if err != nil {
		panic(err)
	}
	sc := res.Snapshot.Scenarios[0]
	fmt.Println("iterations:", sc.Counters["iterations"])
	fmt.Println("thresholds failed:", res.ThresholdsFailed)
	_, err = os.Stat(filepath.Join(res.Dir, "summary.json"))
	fmt.Println("summary.json written:", err == nil)
	// Output:
	// iterations: 100
	// thresholds failed: false
	// summary.json written: true
}
