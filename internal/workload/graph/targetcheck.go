package graph

import (
	"context"
	"fmt"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

// checkTarget counts the target's persons and friendships and compares
// them with the data set the scenarios draw their parameters from: the
// reference graph when answers are checked (computed from the files), the
// counts the load verified otherwise. Persons that
// insert.InsertPersonScenario added (ids above the data set's largest)
// are not counted. A mismatch or an empty graph is an error (exit 1) with
// both sets of numbers; a match returns a note for the summary.
func checkTarget(ctx context.Context, drv driver.Driver, dir string, ref *refGraph, meta *loader.Meta) (string, error) {
	wantP, wantK, maxID, what := meta.Persons, meta.Knows, meta.MaxPersonID, "the load record of "+dir
	if ref != nil {
		wantP, wantK, maxID, what = ref.persons(), ref.knows(), ref.maxID, "the reference computed from "+dir
	}
	conn, err := drv.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("count the target's graph: %w", err)
	}
	defer conn.Close()
	sc, ok := conn.(scanner)
	if !ok {
		return "", fmt.Errorf("count the target's graph: the target's driver cannot return values")
	}
	var persons, knows int64
	q := "SELECT count(*) FROM person"
	var args []any
	if maxID > 0 {
		q += " WHERE id <= $1"
		args = []any{maxID}
	}
	if res := sc.DoScan(ctx, &driver.Op{Query: q, Args: args}, &persons); res.Err != nil {
		return "", fmt.Errorf("count the target's persons: %w", res.Err)
	}
	// Friendships among the data set's persons only: edges that insert
	// scenarios added between new persons are not the data set's.
	kq := "SELECT count(*) FROM person_knows_person"
	if maxID > 0 {
		kq += " WHERE person1id <= $1 AND person2id <= $1"
	}
	if res := sc.DoScan(ctx, &driver.Op{Query: kq, Args: args}, &knows); res.Err != nil {
		return "", fmt.Errorf("count the target's friendships: %w", res.Err)
	}
	switch {
	case persons == 0 || knows == 0:
		return "", fmt.Errorf("the target's graph is empty (%d persons, %d knows): nothing to measure (%s has %d persons, %d knows)", persons, knows, what, wantP, wantK)
	case persons != wantP || knows != wantK:
		return "", fmt.Errorf("the target holds another graph than the scenarios' parameters and checks come from: target %d persons, %d knows; %s %d persons, %d knows",
			persons, knows, what, wantP, wantK)
	}
	return fmt.Sprintf("target graph checked before measuring: %d persons, %d knows, as in %s", persons, knows, what), nil
}
