package graph

import (
	"fmt"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// sqlDialect holds the SQL of every graph scenario, for the schema that
// package loader creates: person(id, ...) and person_knows_person
// (person1id, person2id, creationdate) with each friendship stored once
// and indexed both ways. KNOWS is undirected, so every step follows it in
// both directions. Placeholders are $N, which both PostgreSQL and SQLite
// (modernc.org/sqlite binds $N to argument N) accept.
//
// SQLite's planner keeps the join order of CROSS JOIN, which makes every
// expansion walk the small frontier and probe the knows indexes; for
// PostgreSQL CROSS JOIN with a WHERE clause is an ordinary inner join.
type sqlDialect struct {
	postgres bool
}

var _ dialect = sqlDialect{}

func (sqlDialect) Name() string { return "sql" }

// neighbours selects the persons adjacent to the ids of relation from.
func neighbours(from string) string {
	return fmt.Sprintf("SELECT k.person2id AS id FROM %[1]s f CROSS JOIN person_knows_person k WHERE k.person1id = f.id"+
		" UNION SELECT k.person1id FROM %[1]s f CROSS JOIN person_knows_person k WHERE k.person2id = f.id", from)
}

// GoStep builds s1..sn, where s(i) is the set of distinct persons at the
// end of i-step walks: s(i) = neighbours(s(i-1)). UNION deduplicates each
// level, so the work per level is bounded by the persons, not the walks.
func (d sqlDialect) GoStep(n int) string {
	var b strings.Builder
	b.WriteString("WITH s0(id) AS (SELECT CAST($1 AS BIGINT))")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, ", s%d(id) AS (%s)", i, neighbours(fmt.Sprintf("s%d", i-1)))
	}
	fmt.Fprintf(&b, " SELECT id FROM s%d", n)
	return b.String()
}

// ShortestPath is a bidirectional breadth-first search in one statement.
// a(i) are the persons at distance exactly i from $1: the neighbours of
// a(i-1) minus a(i-1) and a(i-2) (in an undirected graph nothing else can
// be closer); b(j) likewise from $2. A path of length s exists iff
// a(ceil(s/2)) and b(floor(s/2)) meet, so the CASE tries s = 1, 2, ... in
// order. Both databases evaluate the levels lazily, only as far as the
// first match.
func (d sqlDialect) ShortestPath(maxDepth int) string {
	na, nb := (maxDepth+1)/2, maxDepth/2
	var b strings.Builder
	b.WriteString("WITH a0(id) AS (SELECT CAST($1 AS BIGINT)), b0(id) AS (SELECT CAST($2 AS BIGINT))")
	level := func(p string, i int) {
		fmt.Fprintf(&b, ", %s%d(id) AS (SELECT id FROM (%s) n WHERE id NOT IN (SELECT id FROM %s%d)", p, i, neighbours(fmt.Sprintf("%s%d", p, i-1)), p, i-1)
		if i >= 2 {
			fmt.Fprintf(&b, " AND id NOT IN (SELECT id FROM %s%d)", p, i-2)
		}
		b.WriteString(")")
	}
	for i := 1; i <= max(na, nb); i++ {
		if i <= na {
			level("a", i)
		}
		if i <= nb {
			level("b", i)
		}
	}
	b.WriteString(" SELECT CASE WHEN CAST($1 AS BIGINT) = CAST($2 AS BIGINT) THEN 0")
	// A missing person has no path (find_path.FindShortestNoVidPath):
	// answer before any layer is expanded.
	b.WriteString(" WHEN NOT EXISTS (SELECT 1 FROM person WHERE id = CAST($2 AS BIGINT)) OR NOT EXISTS (SELECT 1 FROM person WHERE id = CAST($1 AS BIGINT)) THEN -1")
	for s := 1; s <= maxDepth; s++ {
		fmt.Fprintf(&b, " WHEN EXISTS (SELECT 1 FROM a%d x CROSS JOIN b%d y WHERE x.id = y.id) THEN %d", (s+1)/2, s/2, s)
	}
	b.WriteString(" ELSE -1 END")
	return b.String()
}

// personColumns are the person columns in PersonArgs order.
const personColumns = "id, firstname, lastname, gender, birthday, creationdate, locationip, browserused"

func (d sqlDialect) InsertPersons(n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO person (" + personColumns + ") VALUES ")
	p := 1
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		if d.postgres {
			fmt.Fprintf(&b, "($%d, $%d, $%d, $%d, $%d::date, $%d::timestamptz, $%d, $%d)", p, p+1, p+2, p+3, p+4, p+5, p+6, p+7)
		} else {
			fmt.Fprintf(&b, "($%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d)", p, p+1, p+2, p+3, p+4, p+5, p+6, p+7)
		}
		p += 8
	}
	return b.String()
}

// PersonArgs passes dates as text in the LDBC layouts: SQLite stores that
// text (as the loader does), PostgreSQL casts it.
func (d sqlDialect) PersonArgs(dst []any, p ldbcfile.Person) []any {
	return append(dst, p.ID, p.FirstName, p.LastName, p.Gender,
		p.Birthday.UTC().Format(time.DateOnly),
		p.CreationDate.UTC().Format(ldbcfile.DateTimeLayout),
		p.LocationIP, p.BrowserUsed)
}

func (d sqlDialect) FetchPerson() string {
	return "SELECT " + personColumns + " FROM person WHERE id = $1"
}
