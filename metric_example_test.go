package stampede_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/stampede-bench/stampede"
)

// cacheFamily is a family whose scenario records metrics of its own: a
// counter of cache misses, a trend of lookup times and a named check.
type cacheFamily struct{}

func (*cacheFamily) Name() string { return "cache" }

func (*cacheFamily) Scenarios() []stampede.ScenarioInfo {
	return []stampede.ScenarioInfo{{Name: "cache.Lookup", Description: "look keys up in an in-process cache"}}
}

// Open registers the custom metrics, before anything is measured.
func (*cacheFamily) Open(_ context.Context, env *stampede.Env, _ []string) (*stampede.Opened, error) {
	misses, err := stampede.NewCounter(env, "cache_misses")
	if err != nil {
		return nil, err
	}
	lookup, err := stampede.NewTrend(env, "lookup_time")
	if err != nil {
		return nil, err
	}
	found, err := stampede.NewCheck(env, "key found")
	if err != nil {
		return nil, err
	}
	s := &cacheScenario{misses: misses, lookup: lookup, found: found}
	return &stampede.Opened{Scenarios: map[string]stampede.Runnable{"cache.Lookup": stampede.AsRunnable(s)}, Target: "in-process cache"}, nil
}

type cacheScenario struct {
	misses stampede.Counter
	lookup stampede.Trend
	found  stampede.Check
}

func (s *cacheScenario) NewVU(context.Context, int) (stampede.VU, error) {
	return &cacheVU{s: s, cache: map[int64]bool{}}, nil
}

type cacheVU struct {
	s     *cacheScenario
	cache map[int64]bool
}

func (v *cacheVU) Iterate(_ context.Context, it stampede.Iteration) error {
	start := time.Now()
	key := it.Number() % 10 // each VU misses its first 10 keys, then hits
	hit := v.cache[key]
	v.cache[key] = true
	if !hit {
		it.Add(v.s.misses, 1)
	}
	it.Observe(v.s.lookup, time.Since(start))
	it.Check(v.s.found, true)
	return nil
}

func (v *cacheVU) Close() error { return nil }

// Example_customMetric records metrics of a family's own — a counter, a
// trend of durations and a named check, registered in Open and recorded
// per iteration — and judges them with thresholds like the built-in ones.
func Example_customMetric() {
	dir, err := os.MkdirTemp("", "stampede-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	thresholds, err := stampede.ParseThresholds("cache_misses: count==20", "lookup_time: p(99)<1000", "checks: rate==1")
	if err != nil {
		panic(err)
	}
	plan := stampede.Plan{
		Scenarios: []stampede.PlanScenario{{Name: "cache.Lookup", Family: &cacheFamily{},
			Config: stampede.Config{Executor: stampede.PerVUIterations, VUs: 2, Iterations: 50}}},
		Out:        filepath.Join(dir, "result"),
		Thresholds: thresholds,
	}
	res, err := stampede.Execute(context.Background(), plan, stampede.DefaultDeps(nil, os.Getenv))
	if err != nil {
		panic(err)
	}
	sc := res.Snapshot.Scenarios[0]
	fmt.Println("cache misses:", sc.Counters["cache_misses"])
	fmt.Println("lookups timed:", sc.Trends["lookup_time"].Stats().Count)
	fmt.Println("thresholds failed:", res.ThresholdsFailed)
	// Output:
	// cache misses: 20
	// lookups timed: 100
	// thresholds failed: false
}
