package graph

import (
	"fmt"
	"strings"
)

var (
	_ benchDialect = sqlDialect{}
	_ benchDialect = ngqlDialect{}
)

// GoStepOut follows person_knows_person from person1id to person2id:
// f(i) the distinct persons i directed steps away, then every edge out
// of f(n-1).
func (sqlDialect) GoStepOut(n int, dst bool) string {
	var b strings.Builder
	b.WriteString("WITH f0(id) AS (SELECT CAST($1 AS BIGINT))")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, ", f%d(id) AS (SELECT DISTINCT k.person2id FROM f%d f CROSS JOIN person_knows_person k WHERE k.person1id = f.id)", i, i-1)
	}
	if dst {
		fmt.Fprintf(&b, " SELECT p.firstname FROM f%d f CROSS JOIN person_knows_person k CROSS JOIN person p WHERE k.person1id = f.id AND p.id = k.person2id", n-1)
	} else {
		fmt.Fprintf(&b, " SELECT k.creationdate FROM f%d f CROSS JOIN person_knows_person k WHERE k.person1id = f.id", n-1)
	}
	return b.String()
}

func (sqlDialect) LookUpFirstName() string {
	return "SELECT id FROM person WHERE firstname = $1"
}

// LookUpFirstName needs the tag index package ngqlload creates.
func (ngqlDialect) LookUpFirstName() string {
	return "LOOKUP ON Person WHERE Person.firstName == $1 YIELD id(vertex)"
}

func (sqlDialect) FetchKnows() string {
	return "SELECT creationdate FROM person_knows_person WHERE person1id = $1 AND person2id = $2"
}

// GoStepOut is nebula-bench's go.GoNStepEdge / GoNStepDst statement.
func (ngqlDialect) GoStepOut(n int, dst bool) string {
	if dst {
		return fmt.Sprintf("GO %d STEP FROM $1 OVER KNOWS YIELD $$.Person.firstName", n)
	}
	return fmt.Sprintf("GO %d STEP FROM $1 OVER KNOWS YIELD KNOWS.creationDate", n)
}

// FetchKnows is nebula-bench's fetch.FetchEdge statement.
func (ngqlDialect) FetchKnows() string {
	return "FETCH PROP ON KNOWS $1 -> $2 YIELD KNOWS.creationDate"
}
