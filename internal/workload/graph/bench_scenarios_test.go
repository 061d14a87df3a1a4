package graph

import (
	"testing"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

// Hand-checked answers of the directed scenarios on Tiny, whose stored
// edges are 1->2, 2->3, 3->4, 4->5, 1->3, 6->7.
var tinyOut = map[int64][3]int64{
	1: {2, 2, 2}, // out(1); out({2,3}); out({3,4})
	6: {1, 0, 0}, // out(6); out({7}); none
	8: {0, 0, 0},
}

func TestDirectedQueriesAnswerOnEveryTarget(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	targets := loadedTargets(t, data)
	targets["nebula"], _ = standIn(t, data)
	for name, tgt := range targets {
		t.Run(name, func(t *testing.T) {
			u, _ := drivers().ParseTarget(tgt)
			d := dialectFor(u.Scheme)
			bd := d.(benchDialect)
			drv, err := drivers().Open(t.Context(), u, driver.Options{PoolSize: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer drv.Close()
			c, err := drv.Conn(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for person, want := range tinyOut {
				for n := 1; n <= 3; n++ {
					for _, dst := range []bool{false, true} {
						res := c.Do(t.Context(), &driver.Op{Query: bd.GoStepOut(n, dst), Args: []any{person}})
						if res.Err != nil || res.Rows != want[n-1] {
							t.Errorf("GoStepOut(%d, dst %v) from %d = %d rows, %v; want %d", n, dst, person, res.Rows, res.Err, want[n-1])
						}
					}
				}
			}
			for name, want := range map[string]int64{"First3": 1, "Nobody": 0} {
				res := c.Do(t.Context(), &driver.Op{Query: bd.LookUpFirstName(), Args: []any{name}})
				if res.Err != nil || res.Rows != want {
					t.Errorf("LookUpFirstName(%s) = %d rows, %v; want %d", name, res.Rows, res.Err, want)
				}
			}
			for pair, want := range map[[2]int64]int64{{1, 2}: 1, {2, 1}: 0, {1, 3}: 1, {1, 4}: 0} {
				res := c.Do(t.Context(), &driver.Op{Query: bd.FetchKnows(), Args: []any{pair[0], pair[1]}})
				if res.Err != nil || res.Rows != want {
					t.Errorf("FetchKnows(%v) = %d rows, %v; want %d", pair, res.Rows, res.Err, want)
				}
			}
		})
	}
}

// The new scenarios run through the engine with all checks passing on
// every target.
func TestBenchScenariosThroughEngine(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	targets := loadedTargets(t, data)
	targets["nebula"], _ = standIn(t, data)
	names := []string{Go1StepEdge, Go2StepEdge, Go3StepEdge, Go1StepDst, Go2StepDst, Go3StepDst, FetchEdge, FindShortestNoVidPath, LookUp, InsertEdge, BatchInsertEdge}
	for name, tgt := range targets {
		t.Run(name, func(t *testing.T) {
			env, _ := testEnv(t, tgt)
			f := newFamily(t, "--data", data, "--check-sample", "1", "--batch-size", "2")
			opened, err := f.Open(t.Context(), env, names)
			if err != nil {
				t.Fatal(err)
			}
			defer opened.Close()
			for _, n := range names {
				snap := run(t, env.Metrics, n, opened.Scenarios[n], 2, 12)
				if len(snap.Errors) > 0 {
					t.Errorf("%s: errors %v", n, snap.Errors)
				}
				ch := snap.Rates[metrics.Checks]
				if (n == InsertEdge || n == BatchInsertEdge) && name == "nebula" {
					continue // nGQL INSERT reports no row count: nothing to check
				}
				if ch == nil || ch.Passes != 12 || ch.Fails != 0 {
					t.Errorf("%s: checks %+v, want 12 passes", n, ch)
				}
			}
			// The inserted edges are there: 100->101 of the first pass,
			// and of the next pass (ids shifted by 1<<52).
			u, _ := drivers().ParseTarget(tgt)
			drv, err := drivers().Open(t.Context(), u, driver.Options{PoolSize: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer drv.Close()
			c, err := drv.Conn(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			bd := dialectFor(u.Scheme).(benchDialect)
			for _, e := range [][2]int64{{100, 101}, {100 + 1<<passShift, 101 + 1<<passShift}} {
				if res := c.Do(t.Context(), &driver.Op{Query: bd.FetchKnows(), Args: []any{e[0], e[1]}}); res.Err != nil || res.Rows != 1 {
					t.Errorf("edge %v: %d rows, %v", e, res.Rows, res.Err)
				}
			}
		})
	}
}
