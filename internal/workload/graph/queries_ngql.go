package graph

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ngqlload"
)

// ngqlDialect holds the nGQL of every graph scenario for NebulaGraph, for
// the space package ngqlload creates: tag Person (nebula-bench's property
// names), edge KNOWS with each friendship stored once, INT64 vids. KNOWS is
// undirected in LDBC, so walks use BIDIRECT, as the SQL follows both
// directions.
//
// nGQL has no bind parameters in execute: statements are sent as text
// with the parameters written in, as nebula-bench sends them. The
// scenarios render each parameter row's statement once (render), so that
// driver.Op.Query, and the CSV's query column, is the exact text sent.
type ngqlDialect struct{}

var (
	_ dialect  = ngqlDialect{}
	_ renderer = ngqlDialect{}
)

func (ngqlDialect) Name() string { return "ngql" }

// GoStep: the distinct ends of N-step walks, as go.GoNStep's reference.
func (ngqlDialect) GoStep(n int) string {
	return fmt.Sprintf("GO %d STEP FROM $1 OVER KNOWS BIDIRECT YIELD DISTINCT dst(edge)", n)
}

// ShortestPath answers with one row per shortest path (none when there is
// no path within maxDepth); DoScan reads a path's length (see pathRows).
func (ngqlDialect) ShortestPath(maxDepth int) string {
	return fmt.Sprintf("FIND SHORTEST PATH FROM $1 TO $2 OVER KNOWS BIDIRECT UPTO %d STEPS YIELD path AS p", maxDepth)
}

// InsertPersons is nebula-bench's batched INSERT VERTEX (an upsert).
func (ngqlDialect) InsertPersons(n int) string {
	var b strings.Builder
	b.WriteString("INSERT VERTEX " + ngqlload.PersonTag + "(" + ngqlload.PersonProps + ") VALUES ")
	p := 1
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d:($%d, $%d, $%d, $%d, datetime($%d), $%d, $%d)", p, p+1, p+2, p+3, p+4, p+5, p+6, p+7)
		p += 8
	}
	return b.String()
}

// PersonArgs: dates as the text nGQL's string and datetime() take.
func (ngqlDialect) PersonArgs(dst []any, p ldbcfile.Person) []any {
	return append(dst, p.ID, p.FirstName, p.LastName, p.Gender,
		p.Birthday.UTC().Format("2006-01-02"),
		p.CreationDate.UTC().Format("2006-01-02T15:04:05.000"),
		p.LocationIP, p.BrowserUsed)
}

// FetchPerson is nebula-bench's fetch.FetchTag statement.
func (ngqlDialect) FetchPerson() string {
	return "FETCH PROP ON Person $1 YIELD Person.firstName, Person.lastName, Person.gender, Person.birthday, Person.creationDate, Person.locationIP, Person.browserUsed"
}

// render writes args into query as nGQL literals.
func (ngqlDialect) render(query string, args ...any) (string, error) {
	b, err := nebula.Render(nil, query, args)
	return string(b), err
}

// pathRows: a shortest path is a row per path, no row when there is none.
func (ngqlDialect) pathRows() {}

// writesUncounted: INSERT reports no row count.
func (ngqlDialect) writesUncounted() {}

// renderer is a dialect whose statements carry their parameters as text
// (nGQL): scenarios send render(query, row...) with no Args.
type renderer interface {
	render(query string, args ...any) (string, error)
}

// renderAll renders query once per parameter row when d is a renderer;
// nil otherwise (the scenario binds Args).
func renderAll(d dialect, query string, rows [][]any) ([]string, error) {
	r, ok := d.(renderer)
	if !ok {
		return nil, nil
	}
	out := make([]string, len(rows))
	for i, args := range rows {
		s, err := r.render(query, args...)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}
