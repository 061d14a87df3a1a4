package vu_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/family"
	"github.com/stampede-bench/stampede/plan"
	"github.com/stampede-bench/stampede/vu"
)

// lookup is a scenario on the VU contract itself: each VU looks keys up in
// its own table, records each lookup as a request with its rows, and
// records a miss as a failed request.
type lookup struct{ keys []string }

func (l lookup) NewVU(context.Context, int) (vu.VU, error) {
	return &lookupVU{keys: l.keys, table: map[string]int{"a": 1, "b": 2}}, nil
}

type lookupVU struct {
	keys  []string
	table map[string]int
}

func (v *lookupVU) Iterate(_ context.Context, it *vu.Iter) error {
	key := v.keys[int(it.N)%len(v.keys)]
	start := it.Now()
	res := vu.Result{Rows: 1}
	if _, ok := v.table[key]; !ok {
		res = vu.Result{Err: errors.New("key not found")}
	}
	it.RequestAudit(vu.Audit{Label: "get " + key}, start, res)
	return nil
}

func (v *lookupVU) Close() error { return nil }

// lookupFamily opens its one scenario as a vu.Scenario, without
// stampede.AsRunnable.
type lookupFamily struct{}

func (*lookupFamily) Name() string { return "lookup" }

func (*lookupFamily) Scenarios() []family.ScenarioInfo {
	return []family.ScenarioInfo{{Name: "lookup.Get", Description: "look keys up in a map"}}
}

func (*lookupFamily) Open(context.Context, *family.Env, []string) (*family.Opened, error) {
	return &family.Opened{
		Scenarios: map[string]vu.Scenario{"lookup.Get": lookup{keys: []string{"a", "b", "c"}}},
		Target:    "an in-process map",
	}, nil
}

// Example runs a scenario written on the VU contract: 30 iterations
// of each of three VUs, one key in three missing. The misses are failed
// requests, and the run's verdict says so: degraded, with the share that
// failed.
func Example() {
	dir, err := os.MkdirTemp("", "stampede-vu-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	p := plan.Plan{
		Scenarios: []plan.Scenario{{
			Name: "lookup.Get", Family: &lookupFamily{},
			Config: stampede.Config{Executor: stampede.PerVUIterations, VUs: 3, Iterations: 10},
		}},
		Out:     filepath.Join(dir, "result"),
		Outputs: []stampede.OutputSpec{},
	}
	res, err := stampede.Execute(context.Background(), p, stampede.DefaultDeps(nil, os.Getenv))
	if err != nil {
		panic(err)
	}
	sc := res.Snapshot.Scenarios[0]
	fmt.Println("requests:", sc.Counters["requests"], "failed:", sc.Errors["key not found"])
	fmt.Println("verdict:", res.Verdict.Status)
	// Output:
	// requests: 30 failed: 9
	// verdict: degraded
}
