package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// scanner is the optional driver ability the shortest-path scenario needs:
// run an operation and scan its first row. The sqlite and postgres
// drivers have it.
type scanner interface {
	DoScan(ctx context.Context, op *driver.Op, dest ...any) driver.Result
}

// common is what every graph scenario of one Open shares.
// Names of the checks the graph scenarios record.
const (
	CheckAnswer = "answer matches the reference"
	CheckWrite  = "batch fully written"
)

type common struct {
	name    string
	checkID metrics.ID // named check rate (0: only the checks rate)
	labels  []string   // per-request log label of each parameter row (nil: name)
	drv     driver.Driver
	ref     *refGraph // nil when checks are off
	every   int64     // check every Nth iteration of a VU; 0 = never
	feed    *feeder
	dialect dialect
	rec     *recoveryTally // nil: recoveries not noted
}

// Notes names what the driver recovered while the scenario ran
// (vu.Noter).
func (c *common) Notes() []string { return c.rec.notes(c.name, c.drv) }

// label is what the per-request log shows for parameter row i: the
// scenario and its parameters, precomputed so logging allocates nothing.
func (c *common) label(i int) string {
	if i < len(c.labels) {
		return c.labels[i]
	}
	return c.name
}

// check records one check, under its name when one is registered.
func (c *common) check(it *vu.Iter, ok bool) {
	if c.checkID != 0 {
		it.CheckAs(c.checkID, ok)
	} else {
		it.Check(ok)
	}
}

// checks reports whether iteration n of a VU verifies its answer.
func (c *common) checks(n int64) bool { return c.ref != nil && c.every > 0 && n%c.every == 0 }

// baseVU holds a VU's connection and reusable operation.
type baseVU struct {
	conn driver.Conn
	feed *vuFeeder
	op   driver.Op
}

func (b *baseVU) Close() error { return b.conn.Close() }

func (c *common) newBase(ctx context.Context, id int, query string) (*baseVU, error) {
	c.rec.started(c.drv)
	conn, err := c.drv.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return &baseVU{conn: conn, feed: c.feed.forVU(id), op: driver.Op{Query: query, Args: make([]any, 0, 2)}}, nil
}

// wrongResult is the error of a failed correctness check.
func wrongResult(what string, got, want int64) error {
	return fmt.Errorf("wrong result: %s %d != reference %d", what, got, want)
}

// personQuery is a scenario whose iteration queries one person and whose
// answer is a number of rows: go.Go1Step, go.Go2Step, go.Go3Step (persons
// at the end of N-step walks) and fetch.FetchTag (the person itself).
type personQuery struct {
	common
	query string
	ids   []int64
	stmts []string // per id, for dialects that render parameters (nGQL)
	// want is the reference answer for person: its number of rows.
	want func(ref *refGraph, person int64) int64
	// wantIDs, when set, is the reference answer as ids (sorted, each
	// once): a checked answer's rows must be exactly that set (GO N STEP,
	// LOOKUP); want is then not used.
	wantIDs func(ref *refGraph, person int64) []int64
}

// newGoStep returns go.Go<steps>Step.
func newGoStep(c common, steps int, ids []int64) *personQuery {
	return (&personQuery{common: c, query: c.dialect.GoStep(steps), ids: ids,
		want:    func(ref *refGraph, person int64) int64 { return ref.goStep(person, steps) },
		wantIDs: func(ref *refGraph, person int64) []int64 { return ref.goStepIDs(person, steps) }}).rendered()
}

// newFetchPerson returns fetch.FetchTag: a person's properties by id.
func newFetchPerson(c common, ids []int64) *personQuery {
	return (&personQuery{common: c, query: c.dialect.FetchPerson(), ids: ids,
		want: func(ref *refGraph, person int64) int64 {
			if ref.hasPerson(person) {
				return 1
			}
			return 0
		}}).rendered()
}

// rendered fills stmts when the dialect renders parameters into the text.
func (s *personQuery) rendered() *personQuery {
	rows := make([][]any, len(s.ids))
	for i, id := range s.ids {
		rows[i] = []any{id}
	}
	s.stmts, _ = renderAll(s.dialect, s.query, rows) // ids always render
	if s.stmts != nil {
		s.labels = s.stmts // the per-request log shows the statement sent
	}
	return s
}

func (s *personQuery) NewVU(ctx context.Context, id int) (vu.VU, error) {
	b, err := s.newBase(ctx, id, s.query)
	if err != nil {
		return nil, err
	}
	return s.newVU(b)
}

// newVU makes the VU of connection b; a scenario that checks ids needs a
// driver that returns rows.
func (s *personQuery) newVU(b *baseVU) (*personVU, error) {
	rd, _ := b.conn.(rowsDoer)
	if s.wantIDs != nil && s.ref != nil && s.every > 0 && rd == nil {
		b.Close()
		return nil, fmt.Errorf("%s: the target's driver cannot return rows for answer checks", s.name)
	}
	return &personVU{baseVU: b, s: s, rd: rd}, nil
}

type personVU struct {
	*baseVU
	s   *personQuery
	rd  rowsDoer
	got idSet
}

func (v *personVU) Iterate(ctx context.Context, it *vu.Iter) error {
	i := v.feed.pick()
	person := v.s.ids[i]
	if v.s.stmts != nil {
		v.op.Query = v.s.stmts[i]
	} else {
		v.op.Args = append(v.op.Args[:0], person)
	}
	v.do(ctx, it, vu.Audit{Label: v.s.label(i), Op: &v.op}, person)
	return nil
}

// do runs v.op, checks the answer of a checked iteration against the
// reference of key (a person, or a parameter row's index) and records the
// operation: a wrong answer is a failed operation with the difference as
// its error.
func (v *personVU) do(ctx context.Context, it *vu.Iter, a vu.Audit, key int64) {
	check := v.s.checks(it.N)
	byID := check && v.s.wantIDs != nil
	start := it.Now()
	var res driver.Result
	if byID {
		v.got.reset()
		res = v.rd.DoRows(ctx, &v.op, v.got.add)
	} else {
		res = v.conn.Do(ctx, &v.op)
	}
	end := it.Now()
	if res.Err == nil && check {
		if byID {
			res.Err = v.got.diff(res.Rows, v.s.wantIDs(v.s.ref, key))
		} else if want := v.s.want(v.s.ref, key); res.Rows != want {
			res.Err = wrongResult("rows", res.Rows, want)
		}
		v.s.check(it, res.Err == nil)
	}
	it.RequestAuditAt(a, start, end, res)
}

// newShortestPath returns find_path.FindShortestPath.
func newShortestPath(c common, maxDepth int, pairs [][2]int64) *shortestPath {
	s := &shortestPath{common: c, maxDepth: maxDepth, pairs: pairs}
	rows := make([][]any, len(pairs))
	for i, p := range pairs {
		rows[i] = []any{p[0], p[1]}
	}
	s.stmts, _ = renderAll(c.dialect, c.dialect.ShortestPath(maxDepth), rows) // ids always render
	if s.stmts != nil {
		s.labels = s.stmts // the per-request log shows the statement sent
	}
	return s
}

// shortestPath is find_path.FindShortestPath.
type shortestPath struct {
	common
	maxDepth int
	pairs    [][2]int64
	stmts    []string // per pair, for dialects that render parameters
}

func (s *shortestPath) NewVU(ctx context.Context, id int) (vu.VU, error) {
	b, err := s.newBase(ctx, id, s.dialect.ShortestPath(s.maxDepth))
	if err != nil {
		return nil, err
	}

	sc, ok := b.conn.(scanner)
	if !ok {
		b.Close()
		return nil, fmt.Errorf("%s: the target's driver cannot return values", s.name)
	}
	rd, _ := b.conn.(rowsDoer)
	if s.ref != nil && s.every > 0 && rd == nil {
		b.Close()
		return nil, fmt.Errorf("%s: the target's driver cannot return rows for answer checks", s.name)
	}
	_, perPath := s.dialect.(interface{ pathRows() })
	return &shortestPathVU{baseVU: b, s: s, sc: sc, rd: rd, perPath: perPath}, nil
}

type shortestPathVU struct {
	*baseVU
	s       *shortestPath
	sc      scanner
	rd      rowsDoer
	perPath bool // a row per shortest path, none when there is none
	got     pathLengths
}

func (v *shortestPathVU) Iterate(ctx context.Context, it *vu.Iter) error {
	i := v.feed.pick()
	pair := v.s.pairs[i]
	if v.s.stmts != nil {
		v.op.Query = v.s.stmts[i]
	} else {
		v.op.Args = append(v.op.Args[:0], pair[0], pair[1])
	}
	a := vu.Audit{Label: v.s.label(i), Op: &v.op}
	start := it.Now()
	if !v.s.checks(it.N) {
		var length int64
		res := v.sc.DoScan(ctx, &v.op, &length)
		end := it.Now()
		if res.Err == nil {
			switch {
			case res.Rows > 0:
				a.Answer, a.HasAnswer = length, true
			case v.perPath:
				a.Answer, a.HasAnswer = -1, true
			}
		}
		it.RequestAuditAt(a, start, end, res)
		return nil
	}
	// A checked answer: every row's length against the reference.
	v.got.reset()
	res := v.rd.DoRows(ctx, &v.op, v.got.add)
	end := it.Now()
	if res.Err == nil {
		a.Answer, a.HasAnswer = v.got.answer(v.perPath)
		res.Err = v.got.diff(v.perPath, v.s.ref.shortestPath(pair[0], pair[1], v.s.maxDepth))
		v.s.check(it, res.Err == nil)
	}
	it.RequestAuditAt(a, start, end, res)
	return nil
}

// insertPersons is insert.InsertPersonScenario: each iteration writes the
// next batch of new persons in one INSERT. The persons' attributes come
// from the parameter rows in turn; their ids are new: the k-th person the
// run writes (k from 0, claimed from a counter shared by the VUs) gets id
// base+1+k, where base is the largest person id in the target when the
// scenario starts (Setup). So consecutive runs against one target each
// add rows, and rows counts the rows inserted.
type insertPersons struct {
	common
	batch   int
	persons []ldbcfile.Person
	base    int64
}

var (
	_ vu.Setupper = (*insertPersons)(nil)
	_ vu.Noter    = (*insertPersons)(nil)
)

// Setup reads the largest person id of the target. NebulaGraph has no
// cheap max(id), so there the run reserves ids by its start time instead:
// base = 2^50 + (seconds since 2023-11-14)·2^20, above every LDBC person id
// (< 2^50) and apart from the previous run's ids as long as runs insert
// fewer than 2^20 persons per second.
func (s *insertPersons) Setup(ctx context.Context) error {
	if _, nebula := s.dialect.(ngqlDialect); nebula {
		s.base = 1<<50 + (time.Now().Unix()-1_700_000_000)<<20
		return nil
	}
	conn, err := s.drv.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	sc, ok := conn.(scanner)
	if !ok {
		return fmt.Errorf("%s: the target's driver cannot return values", s.name)
	}
	if res := sc.DoScan(ctx, &driver.Op{Query: "SELECT coalesce(max(id), 0) FROM person"}, &s.base); res.Err != nil {
		return fmt.Errorf("%s: read the largest person id: %w", s.name, res.Err)
	}
	return nil
}

// Notes names the ids the run wrote.
func (s *insertPersons) Notes() []string {
	n := int64(s.feed.next.Load()) // persons claimed by the VUs
	if n == 0 {
		return s.common.Notes()
	}
	from := fmt.Sprintf("above the target's largest id %d when the run started", s.base)
	if _, nebula := s.dialect.(ngqlDialect); nebula {
		from = "a range reserved by the run's start time"
	}
	return append([]string{fmt.Sprintf("%s: new person ids %d..%d (%d claimed, %s)", s.name, s.base+1, s.base+n, n, from)}, s.common.Notes()...)
}

func (s *insertPersons) NewVU(ctx context.Context, id int) (vu.VU, error) {
	b, err := s.newBase(ctx, id, s.dialect.InsertPersons(s.batch))
	if err != nil {
		return nil, err
	}
	b.op.Args = make([]any, 0, 8*s.batch)
	return &insertVU{baseVU: b, s: s, rows: make([]ldbcfile.Person, s.batch)}, nil
}

type insertVU struct {
	*baseVU
	s    *insertPersons
	rows []ldbcfile.Person
}

// errIDOverflow fails an insert whose ids would not fit in int64.
var errIDOverflow = errors.New("new person ids would overflow int64")

func (v *insertVU) Iterate(ctx context.Context, it *vu.Iter) error {
	n := uint64(len(v.s.persons))
	start := v.s.feed.take(v.s.batch)
	last := start + uint64(v.s.batch) // ids base+1+start .. base+last
	if last > uint64(math.MaxInt64-v.s.base) {
		return errIDOverflow
	}
	for j := range v.rows {
		abs := start + uint64(j)
		p := v.s.persons[abs%n]
		p.ID = v.s.base + 1 + int64(abs)
		v.rows[j] = p
	}
	args := v.op.Args[:0]
	for _, p := range v.rows {
		args = v.s.dialect.PersonArgs(args, p)
	}
	v.op.Args = args
	op := &v.op
	if r, ok := v.s.dialect.(renderer); ok {
		q, err := r.render(v.op.Query, args...)
		if err != nil {
			return err
		}
		op = &driver.Op{Query: q}
	}
	t0 := it.Now()
	res := v.conn.Do(ctx, op)
	end := it.Now()
	_, uncounted := v.s.dialect.(interface{ writesUncounted() })
	if res.Err == nil && !uncounted && v.s.every > 0 && it.N%v.s.every == 0 {
		if res.Rows != int64(v.s.batch) {
			res.Err = wrongResult("rows inserted", res.Rows, int64(v.s.batch))
		}
		v.s.check(it, res.Err == nil)
	}
	it.RequestAuditAt(vu.Audit{Label: v.s.name + " ids=" + strconv.FormatInt(v.rows[0].ID, 10) + ".." + strconv.FormatInt(v.rows[len(v.rows)-1].ID, 10), Op: op}, t0, end, res)
	return nil
}

// personLabels labels each person parameter: "go.Go1Step personId=933".
func personLabels(name string, ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = name + " personId=" + strconv.FormatInt(id, 10)
	}
	return out
}

// pairLabels labels each pair: "find_path.FindShortestPath 933->4398046511104".
func pairLabels(name string, pairs [][2]int64) []string {
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = name + " " + strconv.FormatInt(p[0], 10) + "->" + strconv.FormatInt(p[1], 10)
	}
	return out
}
