package graph

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/csvlog"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
	"github.com/stampede-bench/stampede/vu"
)

// runLogged runs one scenario with a per-request CSV log and returns the
// log's records (header first).
func runLogged(t *testing.T, reg *metrics.Registry, name string, sc vu.Scenario, iterations int64) [][]string {
	t.Helper()
	recs, _ := runLoggedSnap(t, reg, name, sc, iterations)
	return recs
}

// runLoggedSnap is runLogged that also returns the scenario's snapshot.
func runLoggedSnap(t *testing.T, reg *metrics.Registry, name string, sc vu.Scenario, iterations int64) ([][]string, *metrics.ScenarioSnapshot) {
	t.Helper()
	var buf bytes.Buffer
	log := csvlog.New(&buf, csvlog.Options{})
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{name})
	go agg.Run()
	cfg := engine.Config{Executor: engine.SharedIterations, VUs: 1, Iterations: iterations}.Defaults()
	if _, err := engine.Run(t.Context(), engine.Plan{Scenarios: []engine.Spec{{Name: name, Scenario: sc, Config: cfg}}}, engine.Deps{Agg: agg, Clock: clock, Log: log}); err != nil {
		t.Fatal(err)
	}
	agg.Close()
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs, agg.Snapshot().Scenarios[0]
}

// Every answer can be audited from requests.csv alone: the query column
// holds the statement as sent, with its parameters bound, which gives the
// logged rows when run again by hand; shortest paths log their length (-1
// for none) in the answer column; inserts name their id range; the label
// column keeps the short name.
func TestRequestLogAudits(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	for name, tgt := range loadedTargets(t, data) {
		t.Run(name, func(t *testing.T) {
			env, _ := testEnv(t, tgt)
			opened, err := newFamily(t, "--data", data, "--check-sample", "1", "--batch-size", "2").Open(t.Context(), env,
				[]string{Go2Step, FindShortestPath, InsertPerson})
			if err != nil {
				t.Fatal(err)
			}
			defer opened.Close()
			u, _ := drivers().ParseTarget(tgt)
			drv, err := drivers().Open(t.Context(), u, driver.Options{PoolSize: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer drv.Close()
			conn, _ := drv.Conn(t.Context())
			defer conn.Close()

			recs := runLogged(t, env.Metrics, Go2Step, opened.Scenarios[Go2Step], 3) // persons 1, 6, 8
			if got := strings.Join(recs[0], ","); got != strings.TrimSuffix(csvlog.Header, "\n") {
				t.Fatalf("header %q", got)
			}
			for i, r := range recs[1:] {
				if strings.Contains(r[1], "$") || !strings.HasPrefix(r[1], "WITH s0(id) AS (SELECT CAST(") {
					t.Errorf("query %q is not the statement with its parameters bound", r[1])
				}
				want := strconv.FormatInt(ldbctest.TinyGoStep[[]int64{1, 6, 8}[i]][1], 10)
				again := conn.Do(t.Context(), &driver.Op{Query: r[1]})
				if r[5] != want || again.Err != nil || strconv.FormatInt(again.Rows, 10) != r[5] {
					t.Errorf("logged rows %s, want %s; the logged statement run again gives %d rows, %v", r[5], want, again.Rows, again.Err)
				}
				if r[6] != Go2Step+" personId="+[]string{"1", "6", "8"}[i] || r[7] != "" {
					t.Errorf("label %q answer %q", r[6], r[7])
				}
			}

			recs = runLogged(t, env.Metrics, FindShortestPath, opened.Scenarios[FindShortestPath], 5)
			pairs := [][2]int64{{1, 5}, {1, 6}, {2, 2}, {5, 1}, {1, 4}}
			for i, r := range recs[1:] {
				want := strconv.FormatInt(ldbctest.TinyShortest[pairs[i]], 10)
				if r[7] != want || r[5] != "1" {
					t.Errorf("pair %v: answer %q rows %q, want length %s", pairs[i], r[7], r[5], want)
				}
				var length int64
				if res := conn.(scanner).DoScan(t.Context(), &driver.Op{Query: r[1]}, &length); res.Err != nil || strconv.FormatInt(length, 10) != want {
					t.Errorf("logged statement gives %d, %v; want %s", length, res.Err, want)
				}
			}

			recs = runLogged(t, env.Metrics, InsertPerson, opened.Scenarios[InsertPerson], 2)
			for i, r := range recs[1:] {
				ids := []string{"9..10", "11..12"}[i]
				if r[6] != InsertPerson+" ids="+ids || r[5] != "2" || !strings.HasPrefix(r[1], "INSERT INTO person") ||
					!strings.Contains(r[1], "("+strings.Split(ids, "..")[0]+", 'First") {
					t.Errorf("insert record %q", r)
				}
			}
		})
	}
}
