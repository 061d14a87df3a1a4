package graph

import (
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// generatedTargets generates a small full network and loads it into each
// kind of target.
func generatedTargets(t *testing.T) (string, map[string]string) {
	t.Helper()
	data := t.TempDir()
	if _, err := datagen.Generate(t.Context(), datagen.Config{SF: 0.01, Out: data, Seed: 7, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	return data, loadedTargets(t, data)
}

// Every Interactive query gives the reference's answer on every parameter
// row, on both databases; a changed table makes the comparison fail.
func TestInteractiveAnswers(t *testing.T) {
	data, targets := generatedTargets(t)
	ref, err := loadRefGraph(data, 0)
	if err != nil {
		t.Fatal(err)
	}
	net, err := loadRefNet(data, ref)
	if err != nil {
		t.Fatal(err)
	}
	persons, messages, err := loadInteractiveParams(data)
	if err != nil {
		t.Fatal(err)
	}
	for name, tgt := range targets {
		t.Run(name, func(t *testing.T) {
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
			pg := name == "postgres"
			ask := func(q string, row interactiveRow, kind interactiveKind) [][]string {
				args := []any{row.id}
				if kind == onPersonName {
					args = append(args, row.name)
				}
				if kind == onPersonDate {
					if pg {
						args = append(args, time.UnixMilli(row.maxMs).UTC())
					} else {
						args = append(args, string(ldbcfile.AppendDateTimeMillis(nil, row.maxMs)))
					}
				}
				var got [][]string
				res := c.(rowsDoer).DoRows(t.Context(), &driver.Op{Query: q, Args: args}, func(vals []any) error {
					cells := make([]string, len(vals))
					for k, v := range vals {
						cells[k] = canonCell(v)
					}
					got = append(got, cells)
					return nil
				})
				if res.Err != nil {
					t.Fatalf("%s: %v", q, res.Err)
				}
				return got
			}
			for _, s := range interactiveSpecs() {
				rows := persons
				if s.kind == onMessage {
					rows = messages
				}
				nonEmpty := 0
				for _, row := range rows[:min(len(rows), 25)] {
					got := ask(s.sql(pg), row, s.kind)
					want := s.want(net, row)
					if !equalRows(got, want) {
						t.Errorf("%s(%d): %v\ngot  %v\nwant %v", s.name, row.id, answerDiff(got, want), got, want)
					}
					if len(want) > 0 {
						nonEmpty++
					}
				}
				if nonEmpty == 0 {
					t.Errorf("%s: every answer is empty", s.name)
				}
			}
			// A comment that disappears from the target is noticed.
			var victim interactiveRow
			for _, m := range messages {
				if i, ok := net.msgIndex(m.id); ok && net.msgs[i].parent >= 0 {
					victim = m
					break
				}
			}
			if res := c.Do(t.Context(), &driver.Op{Query: "DELETE FROM comment WHERE id = $1", Args: []any{victim.id}}); res.Err != nil || res.Rows != 1 {
				t.Fatalf("delete: %d, %v", res.Rows, res.Err)
			}
			if equalRows(ask(sqlIS4(), victim, onMessage), net.is4(victim.id)) {
				t.Error("IS4 matched the reference after its comment was deleted")
			}
		})
	}
}

// Interactive scenarios run through the family and the engine with their
// checks passing.
func TestInteractiveThroughEngine(t *testing.T) {
	data, targets := generatedTargets(t)
	env, _ := testEnv(t, targets["sqlite"])
	f := newFamily(t, "--data", data, "--check-sample", "1")
	names := []string{IS2, IS7, IC1, IC9, IC13}
	opened, err := f.Open(t.Context(), env, names)
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	for _, n := range names {
		snap := run(t, env.Metrics, n, opened.Scenarios[n], 2, 10)
		if len(snap.Errors) > 0 {
			t.Errorf("%s: errors %v", n, snap.Errors)
		}
		ch := snap.Rates[metrics.Checks]
		if ch == nil || ch.Passes != 10 || ch.Fails != 0 {
			t.Errorf("%s: checks %+v, want 10 passes", n, ch)
		}
	}
}
