package graph

import (
	"strings"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// dialect is where a query language keeps the text of every scenario's
// query: one implementation per language, one file each (queries_sql.go
// now; queries_cypher.go and queries_ngql.go fit the same shape). Queries
// take positional parameters; the scenario code binds them.
type dialect interface {
	// Name is the key of custom scenario queries in YAML ("sql").
	Name() string
	// GoStep returns the distinct persons at the ends of KNOWS walks of
	// exactly n steps from person $1, one row each (see docs/graph.md).
	GoStep(n int) string
	// ShortestPath returns one row with one integer column: the number of
	// KNOWS hops on a shortest path from person $1 to person $2, 0 when
	// they are the same, -1 when there is none of at most maxDepth hops.
	ShortestPath(maxDepth int) string
	// InsertPersons inserts n new persons (a plain insert: an id that
	// exists fails the statement), with parameters in PersonArgs order
	// per row; its row count is the number of persons inserted.
	InsertPersons(n int) string
	// PersonArgs appends the parameters of one person for InsertPersons.
	PersonArgs(dst []any, p ldbcfile.Person) []any
	// FetchPerson returns the properties of person $1 (one row, or none).
	FetchPerson() string
}

// dialectFor returns the dialect of a target URL scheme, or nil.
func dialectFor(scheme string) dialect {
	switch strings.ToLower(scheme) {
	case "sqlite":
		return sqlDialect{}
	case "postgres", "postgresql":
		return sqlDialect{postgres: true}
	case "nebula":
		return ngqlDialect{}
	}
	return nil
}
