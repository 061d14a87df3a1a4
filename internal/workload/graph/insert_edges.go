package graph

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/vu"
)

// nebula-bench's edge insert scenarios. nebula-bench inserts LIKES edges
// from person_likes_comment; stampede's data sets have no comments, so
// these insert KNOWS edges between consecutive rows of insert_person.csv
// (persons that are not in the loaded graph, so the answers of the go.*
// and find_path.* scenarios do not change), ids shifted per pass as
// insert.InsertPersonScenario does.
const (
	InsertEdge      = "insert.InsertEdgeScenario"
	BatchInsertEdge = "insert.BatchInsertEdgeScenario"
)

func insertEdgeInfos() []workload.Info {
	return []workload.Info{
		{Name: InsertEdge, Description: "insert one KNOWS edge between two insert persons"},
		{Name: BatchInsertEdge, Description: "insert --batch-size KNOWS edges between insert persons in one statement"},
	}
}

// edgeDialect writes KNOWS edges (an upsert, like INSERT EDGE).
type edgeDialect interface {
	// InsertKnows writes n edges, parameters in KnowsArgs order per edge.
	InsertKnows(n int) string
	// KnowsArgs appends the parameters of one edge.
	KnowsArgs(dst []any, a, b int64, created time.Time) []any
}

var (
	_ edgeDialect = sqlDialect{}
	_ edgeDialect = ngqlDialect{}
)

func (d sqlDialect) InsertKnows(n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO person_knows_person (person1id, person2id, creationdate) VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		p := 3*i + 1
		if d.postgres {
			fmt.Fprintf(&b, "($%d, $%d, $%d::timestamptz)", p, p+1, p+2)
		} else {
			fmt.Fprintf(&b, "($%d, $%d, $%d)", p, p+1, p+2)
		}
	}
	b.WriteString(" ON CONFLICT (person1id, person2id) DO UPDATE SET creationdate = excluded.creationdate")
	return b.String()
}

func (sqlDialect) KnowsArgs(dst []any, a, b int64, created time.Time) []any {
	return append(dst, a, b, created.UTC().Format(ldbcfile.DateTimeLayout))
}

// InsertKnows is nebula-bench's INSERT EDGE shape, on KNOWS.
func (ngqlDialect) InsertKnows(n int) string {
	var b strings.Builder
	b.WriteString("INSERT EDGE KNOWS(creationDate) VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		p := 3*i + 1
		fmt.Fprintf(&b, "$%d->$%d:(datetime($%d))", p, p+1, p+2)
	}
	return b.String()
}

func (ngqlDialect) KnowsArgs(dst []any, a, b int64, created time.Time) []any {
	return append(dst, a, b, created.UTC().Format("2006-01-02T15:04:05.000"))
}

// insertEdges is insert.InsertEdgeScenario (batch 1) and
// insert.BatchInsertEdgeScenario.
type insertEdges struct {
	common
	batch   int
	persons []ldbcfile.Person
}

func newInsertEdges(c common, batch int, persons []ldbcfile.Person) (*insertEdges, error) {
	if len(persons) < 2 {
		return nil, fmt.Errorf("%s needs at least 2 rows in %s", c.name, ldbcfile.InsertPersonPath)
	}
	if _, ok := c.dialect.(edgeDialect); !ok {
		return nil, fmt.Errorf("%s: the %s dialect cannot insert edges", c.name, c.dialect.Name())
	}
	return &insertEdges{common: c, batch: batch, persons: persons}, nil
}

func (s *insertEdges) NewVU(ctx context.Context, id int) (vu.VU, error) {
	d := s.dialect.(edgeDialect)
	b, err := s.newBase(ctx, id, d.InsertKnows(s.batch))
	if err != nil {
		return nil, err
	}
	b.op.Args = make([]any, 0, 3*s.batch)
	return &insertEdgesVU{baseVU: b, s: s, d: d, edges: make([][2]int64, s.batch)}, nil
}

// passShift moves the edges of pass p>0 over the insert persons to ids
// shifted by p<<passShift (LDBC person ids stay below 2^50), so a long run
// keeps writing new edges; the statements upsert, so a repeated run rewrites.
const passShift = 52

type insertEdgesVU struct {
	*baseVU
	s     *insertEdges
	d     edgeDialect
	edges [][2]int64
}

func (v *insertEdgesVU) Iterate(ctx context.Context, it *vu.Iter) error {
	n := uint64(len(v.s.persons))
	start := v.s.feed.take(v.s.batch)
	for j := range v.edges {
		abs := start + uint64(j)
		shift := int64(abs/n) << passShift
		a, b := v.s.persons[abs%n], v.s.persons[(abs+1)%n]
		v.edges[j] = [2]int64{a.ID + shift, b.ID + shift}
	}
	// One key order per statement: overlapping batches cannot deadlock.
	slices.SortFunc(v.edges, func(x, y [2]int64) int {
		return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1]))
	})
	v.edges = slices.CompactFunc(v.edges, func(x, y [2]int64) bool { return x == y })
	created := v.s.persons[start%n].CreationDate
	args := v.op.Args[:0]
	for _, e := range v.edges {
		args = v.d.KnowsArgs(args, e[0], e[1], created)
	}
	v.edges = v.edges[:cap(v.edges)]
	v.op.Args = args
	op, label := &v.op, v.s.label(0)
	if len(args) != 3*v.s.batch { // a pass boundary folded a repeat: rebuild
		op = &driver.Op{Query: v.d.InsertKnows(len(args) / 3), Args: args}
	}
	if r, ok := v.s.dialect.(renderer); ok {
		q, err := r.render(op.Query, args...)
		if err != nil {
			return err
		}
		op, label = &driver.Op{Query: q}, q
	}
	t0 := it.Now()
	res := v.conn.Do(ctx, op)
	end := it.Now()
	_, uncounted := v.s.dialect.(interface{ writesUncounted() })
	if res.Err == nil && !uncounted && v.s.every > 0 && it.N%v.s.every == 0 {
		if want := int64(len(args) / 3); res.Rows != want {
			res.Err = wrongResult("rows written", res.Rows, want)
		}
		v.s.check(it, res.Err == nil)
	}
	it.RequestAuditAt(vu.Audit{Label: label}, t0, end, res)
	return nil
}
