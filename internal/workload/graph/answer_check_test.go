package graph

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
	"github.com/stampede-bench/stampede/internal/workload/graph/ngqlload"
)

func TestIDSetDiff(t *testing.T) {
	for _, c := range []struct {
		name   string
		got    []any
		want   []int64
		errMsg string
	}{
		{"same set, other order", []any{int64(3), int64(2)}, []int64{2, 3}, ""},
		{"empty both", nil, nil, ""},
		{"right count, wrong id", []any{int64(2), int64(5)}, []int64{2, 3}, "wrong result: 2 rows, 1 ids not in the reference, 1 reference ids missing"},
		{"missing", []any{int64(2)}, []int64{2, 3}, "wrong result: 1 rows, 1 reference ids missing"},
		{"repeated", []any{int64(2), int64(2), int64(3)}, []int64{2, 3}, "wrong result: 3 rows, 1 ids repeated"},
		{"not an id", []any{"x", int64(3)}, []int64{2, 3}, "wrong result: 2 rows, 1 reference ids missing, 1 rows without an integer id"},
		{"unexpected rows", []any{int64(7)}, nil, "wrong result: 1 rows, 1 ids not in the reference"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s idSet
			s.add([]any{int64(99)}) // reset must forget it
			s.reset()
			for _, v := range c.got {
				s.add([]any{v})
			}
			err := s.diff(int64(len(c.got)), c.want)
			if msg := errString(err); msg != c.errMsg {
				t.Errorf("diff = %q, want %q", msg, c.errMsg)
			}
		})
	}
}

func TestPathLengthsDiff(t *testing.T) {
	for _, c := range []struct {
		name      string
		perPath   bool
		got       []any
		want      int64
		errMsg    string
		answer    int64
		hasAnswer bool
	}{
		{"sql right", false, []any{int64(3)}, 3, "", 3, true},
		{"sql wrong length", false, []any{int64(2)}, 3, "wrong result: path length 2 != reference 3", 2, true},
		{"sql no row", false, nil, 3, "wrong result: rows 0 != reference 1", 0, false},
		{"sql none", false, []any{int64(-1)}, -1, "", -1, true},
		{"ngql every path right", true, []any{int64(3), int64(3), int64(3)}, 3, "", 3, true},
		{"ngql one of several paths wrong", true, []any{int64(3), int64(4), int64(3)}, 3, "wrong result: 1 of 3 paths not of the reference length 3", 3, true},
		{"ngql first of several wrong", true, []any{int64(2), int64(3)}, 3, "wrong result: 1 of 2 paths not of the reference length 3", 2, true},
		{"ngql no path, none expected", true, nil, -1, "", -1, true},
		{"ngql no path, one expected", true, nil, 2, "wrong result: path length -1 != reference 2", -1, true},
		{"ngql paths, none expected", true, []any{int64(2)}, -1, "wrong result: 1 paths, the reference has none", 2, true},
		{"ngql not a path", true, []any{"x"}, 2, "wrong result: 1 of 1 rows without a path length", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p pathLengths
			p.reset()
			for _, v := range c.got {
				p.add([]any{v})
			}
			if msg := errString(p.diff(c.perPath, c.want)); msg != c.errMsg {
				t.Errorf("diff = %q, want %q", msg, c.errMsg)
			}
			if a, ok := p.answer(c.perPath); a != c.answer || ok != c.hasAnswer {
				t.Errorf("answer = %d, %v; want %d, %v", a, ok, c.answer, c.hasAnswer)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A target holding another graph with the right row counts fails by
// content: on SQLite and on the stand-in graphd, go.Go1Step for person 1
// answers two rows with one wrong id, and the shortest paths 1<->5 have
// the wrong length. Each wrong answer is a failed request: in the errors,
// requests_failed, the checks and the per-request log (isSucceed false,
// the difference as errorMsg, the answer column filled).
func TestWrongIDsRightCountFail(t *testing.T) {
	// Both targets load Tiny; then the chord 1-3 is moved to 1-5 in each:
	// the same number of persons and friendships, person 1 still with two
	// friends ({2,5} instead of {2,3}), the paths 1<->5 one hop instead of
	// three.
	right := t.TempDir()
	ldbctest.Write(t, right, ldbctest.Tiny)
	path := filepath.Join(t.TempDir(), "wrong.db")
	db := "sqlite://" + path
	if _, err := loader.Load(t.Context(), loader.Config{Target: db, Data: right}); err != nil {
		t.Fatal(err)
	}
	sdb, _ := sql.Open("sqlite", sqlite.DSN(path, false))
	if _, err := sdb.Exec("UPDATE person_knows_person SET person2id = 5 WHERE person1id = 1 AND person2id = 3"); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	neb, cluster := standIn(t, right)
	if err := cluster.Store.MoveEdge("tiny", ngqlload.KnowsEdge, 1, 3, 5); err != nil {
		t.Fatal(err)
	}
	for name, tgt := range map[string]string{"sqlite": db, "nebula stand-in": neb} {
		t.Run(name, func(t *testing.T) {
			env, _ := testEnv(t, tgt)
			opened, err := newFamily(t, "--data", right, "--check-sample", "1").Open(t.Context(), env, []string{Go1Step, FindShortestPath})
			if err != nil {
				t.Fatal(err)
			}
			defer opened.Close()
			for _, c := range []struct {
				scenario   string
				iterations int64
				errMsg     string
				fails      int64
			}{
				{Go1Step, 3, "wrong result: 2 rows, 1 ids not in the reference, 1 reference ids missing", 1}, // persons 1, 6, 8
				{FindShortestPath, 5, "wrong result: path length 1 != reference 3", 2},                       // (1,5) and (5,1)
			} {
				recs, snap := runLoggedSnap(t, env.Metrics, c.scenario, opened.Scenarios[c.scenario], c.iterations)
				if n := snap.Errors[c.errMsg]; n != c.fails || len(snap.Errors) != 1 {
					t.Errorf("%s: errors %v, want %d× %q", c.scenario, snap.Errors, c.fails, c.errMsg)
				}
				if rf := snap.Rates[metrics.RequestsFailed]; rf == nil || rf.Passes != c.fails || rf.Fails != c.iterations-c.fails {
					t.Errorf("%s: requests_failed %+v, want %d failed of %d", c.scenario, rf, c.fails, c.iterations)
				}
				if ch := snap.Rates[metrics.Checks]; ch == nil || ch.Fails != c.fails || ch.Passes != c.iterations-c.fails {
					t.Errorf("%s: checks %+v", c.scenario, ch)
				}
				col := map[string]int{}
				for i, h := range recs[0] {
					col[h] = i
				}
				var failed int64
				for _, r := range recs[1:] {
					if r[col["isSucceed"]] != "true" {
						failed++
						if r[col["errorMsg"]] != c.errMsg {
							t.Errorf("%s: logged errorMsg %q", c.scenario, r[col["errorMsg"]])
						}
					}
					if c.scenario == FindShortestPath && r[col["answer"]] == "" {
						t.Errorf("%s: %v logged without an answer", c.scenario, r)
					}
				}
				if failed != c.fails || int64(len(recs)-1) != c.iterations {
					t.Errorf("%s: %d of %d logged requests failed, want %d of %d", c.scenario, failed, len(recs)-1, c.fails, c.iterations)
				}
			}
		})
	}
}
