package graph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"time"

	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/vu"
)

// Scenarios of the current NebulaGraph-Bench that follow KNOWS in its
// stored direction (person1 -> person2), as its statements do, on every
// target.
const (
	Go1StepEdge           = "go.Go1StepEdge"
	Go2StepEdge           = "go.Go2StepEdge"
	Go3StepEdge           = "go.Go3StepEdge"
	Go1StepDst            = "go.Go1StepDst"
	Go2StepDst            = "go.Go2StepDst"
	Go3StepDst            = "go.Go3StepDst"
	FetchEdge             = "fetch.FetchEdge"
	FindShortestNoVidPath = "find_path.FindShortestNoVidPath"
	LookUp                = "lookup.LookUp"
)

func benchInfos() []workload.Info {
	return []workload.Info{
		{Name: Go1StepEdge, Description: "KNOWS.creationDate of every edge out of a person (stored direction)"},
		{Name: Go2StepEdge, Description: "… of every edge out of the persons 1 step away"},
		{Name: Go3StepEdge, Description: "… of every edge out of the persons 2 steps away"},
		{Name: Go1StepDst, Description: "firstName of the end of every edge out of a person (stored direction)"},
		{Name: Go2StepDst, Description: "… of every edge out of the persons 1 step away"},
		{Name: Go3StepDst, Description: "… of every edge out of the persons 2 steps away"},
		{Name: FetchEdge, Description: "a KNOWS edge's creationDate by its two persons"},
		{Name: FindShortestNoVidPath, Description: "shortest path from a person to a vertex that does not exist (-1)"},
		{Name: LookUp, Description: "persons with a given first name, by index (first names of the k-hop persons)"},
	}
}

// benchInfos lists this file's and insert_edges.go's scenarios.
func allBenchInfos() []workload.Info { return append(benchInfos(), insertEdgeInfos()...) }

// benchDialect is what a dialect needs for these scenarios.
type benchDialect interface {
	// GoStepOut returns one row per KNOWS edge leaving the distinct persons
	// at the end of directed walks of n-1 steps from person $1: the edge's
	// creation date (dst false) or the end person's first name (dst true).
	GoStepOut(n int, dst bool) string
	// FetchKnows returns the creation date of the edge $1 -> $2.
	FetchKnows() string
	// LookUpFirstName returns the ids of the persons whose first name is $1.
	LookUpFirstName() string
}

// benchScenarios builds the named scenarios of this file; others are
// left to build.
func (f *Family) benchScenarios(names []string, dir string, base func(string, int) common, khop []int64) (map[string]vu.Scenario, error) {
	out := map[string]vu.Scenario{}
	var dg *dirGraph
	var pairs [][2]int64
	for _, n := range names {
		steps, dst := 0, false
		switch n {
		case Go1StepEdge, Go2StepEdge, Go3StepEdge:
			steps = map[string]int{Go1StepEdge: 1, Go2StepEdge: 2, Go3StepEdge: 3}[n]
		case Go1StepDst, Go2StepDst, Go3StepDst:
			steps, dst = map[string]int{Go1StepDst: 1, Go2StepDst: 2, Go3StepDst: 3}[n], true
		case FetchEdge, FindShortestNoVidPath, LookUp:
		case InsertEdge, BatchInsertEdge:
			p, err := loadParams(dir, f.dates, false, false, true)
			if err != nil {
				return nil, usage.Errorf("substitution parameters: %v", err)
			}
			batch := 1
			if n == BatchInsertEdge {
				batch = f.opts.BatchSize
			}
			c := base(n, len(p.insert))
			c.labels = []string{n + " batch=" + strconv.Itoa(batch)}
			s, err := newInsertEdges(c, batch, p.insert)
			if err != nil {
				return nil, usage.Errorf("%v", err)
			}
			out[n] = s
			continue
		default:
			continue
		}
		if len(khop) == 0 && n != FetchEdge {
			var err error
			if khop, err = readKHop(dir, f.dates); err != nil {
				return nil, err
			}
		}
		if dg == nil && (f.opts.CheckSample > 0 || n == FetchEdge || n == LookUp) {
			var err error
			if dg, pairs, err = loadDirGraph(dir); err != nil {
				return nil, err
			}
		}
		c := base(n, len(khop))
		if f.opts.CheckSample == 0 {
			c.ref = nil
		}
		bd, ok := c.dialect.(benchDialect)
		if !ok {
			return nil, usage.Errorf("%s: the %s dialect has no such query", n, c.dialect.Name())
		}
		switch {
		case steps > 0:
			c.labels = personLabels(n, khop)
			s := (&personQuery{common: c, query: bd.GoStepOut(steps, dst), ids: khop,
				want: func(_ *refGraph, p int64) int64 { return dg.outEdges(p, steps) }}).rendered()
			if f.opts.CheckSample > 0 {
				s.ref = &refGraph{} // checks on; the answer comes from dg
			}
			out[n] = s
		case n == FetchEdge:
			if len(pairs) == 0 {
				return nil, usage.Errorf("%s: %s has no friendships", n, ldbcfile.PersonKnowsPersonPath)
			}
			c = base(n, len(pairs))
			c.labels = pairLabels(n, pairs)
			out[n] = newFetchEdge(c, bd, pairs, dg)
		case n == LookUp:
			names := make([]string, len(khop))
			for i, id := range khop {
				names[i] = dg.firstName[id]
			}
			c = base(n, len(names))
			out[n] = newLookUp(c, bd, names, dg)
		default: // FindShortestNoVidPath
			np := make([][2]int64, len(khop))
			for i, id := range khop {
				np[i] = [2]int64{id, -1}
			}
			c = base(n, len(np))
			c.labels = pairLabels(n, np)
			out[n] = newShortestPath(c, f.opts.MaxDepth, np)
		}
	}
	return out, nil
}

func readKHop(dir string, dates ldbcfile.DateFormat) ([]int64, error) {
	p, err := loadParams(dir, dates, true, false, false)
	if err != nil {
		return nil, usage.Errorf("substitution parameters: %v", err)
	}
	return p.khop, nil
}

// fetchEdge is fetch.FetchEdge (1 row when the edge exists), and
// lookup.LookUp: a query per parameter row whose answer is a row count.
type fetchEdge struct {
	personQuery
	args [][]any // parameters of each row
}

func newFetchEdge(c common, d benchDialect, pairs [][2]int64, dg *dirGraph) *fetchEdge {
	// Reuse personQuery with the pair index as its "id".
	idx := make([]int64, len(pairs))
	for i := range idx {
		idx[i] = int64(i)
	}
	s := &fetchEdge{}
	s.personQuery = personQuery{common: c, query: d.FetchKnows(), ids: idx,
		want: func(_ *refGraph, i int64) int64 { return dg.hasEdge(pairs[i][0], pairs[i][1]) }}
	rows := make([][]any, len(pairs))
	for i, p := range pairs {
		rows[i] = []any{p[0], p[1]}
	}
	s.stmts, _ = renderAll(c.dialect, s.query, rows)
	if s.stmts != nil {
		s.labels = s.stmts
	}
	s.args = rows
	if c.ref != nil {
		s.ref = &refGraph{}
	}
	return s
}

func (s *fetchEdge) NewVU(ctx context.Context, id int) (vu.VU, error) {
	b, err := s.newBase(ctx, id, s.query)
	if err != nil {
		return nil, err
	}
	pv, err := s.personQuery.newVU(b)
	if err != nil {
		return nil, err
	}
	return &fetchEdgeVU{*pv, s}, nil
}

type fetchEdgeVU struct {
	personVU
	e *fetchEdge
}

func (v *fetchEdgeVU) Iterate(ctx context.Context, it *vu.Iter) error {
	i := v.feed.pick()
	if v.e.stmts != nil {
		v.op.Query = v.e.stmts[i]
	} else {
		v.op.Args = append(v.op.Args[:0], v.e.args[i]...)
	}
	v.do(ctx, it, vu.Audit{Label: v.e.label(i)}, int64(i))
	return nil
}

// dirGraph is the KNOWS graph in its stored direction, by the loaders'
// rules (malformed, self, dangling and repeated friendships skipped; the
// first direction listed is the one stored), built independently of them.
type dirGraph struct {
	out       map[int64][]int64
	firstName map[int64]string   // of each person
	named     map[string][]int64 // ids of the persons of each first name, sorted
}

// loadDirGraph reads the person and knows files; it also returns the
// friendships (in file order) as fetch.FetchEdge's parameters.
func loadDirGraph(dir string) (*dirGraph, [][2]int64, error) {
	lenient := ldbcfile.Reader{OnBadLine: func(*ldbcfile.LineError) error { return nil }}
	persons := map[int64]bool{}
	g := &dirGraph{out: map[int64][]int64{}, firstName: map[int64]string{}, named: map[string][]int64{}}
	pf, err := os.Open(filepath.Join(dir, ldbcfile.PersonPath))
	if err != nil {
		return nil, nil, err
	}
	err = lenient.ReadPersons(pf, func(p ldbcfile.Person) error {
		if !persons[p.ID] {
			persons[p.ID] = true
			g.firstName[p.ID] = p.FirstName
			g.named[p.FirstName] = append(g.named[p.FirstName], p.ID)
		}
		return nil
	})
	pf.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	for _, ids := range g.named {
		slices.Sort(ids)
	}
	kf, err := os.Open(filepath.Join(dir, ldbcfile.PersonKnowsPersonPath))
	if err != nil {
		return nil, nil, err
	}
	defer kf.Close()
	seen := map[[2]int64]bool{}
	var pairs [][2]int64
	err = lenient.ReadKnows(kf, func(a, b int64, _ time.Time) error {
		k := [2]int64{min(a, b), max(a, b)}
		if a == b || !persons[a] || !persons[b] || seen[k] {
			return nil
		}
		seen[k] = true
		g.out[a] = append(g.out[a], b)
		pairs = append(pairs, [2]int64{a, b})
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	return g, pairs, nil
}

// outEdges counts the edges leaving the distinct persons at the end of
// directed walks of steps-1 steps from start.
func (g *dirGraph) outEdges(start int64, steps int) int64 {
	frontier := []int64{start}
	for range steps - 1 {
		var next []int64
		for _, v := range frontier {
			next = append(next, g.out[v]...)
		}
		slices.Sort(next)
		frontier = slices.Compact(next)
	}
	var n int64
	for _, v := range frontier {
		n += int64(len(g.out[v]))
	}
	return n
}

func (g *dirGraph) hasEdge(a, b int64) int64 {
	if slices.Contains(g.out[a], b) {
		return 1
	}
	return 0
}

// newLookUp returns lookup.LookUp: the persons named names[i].
func newLookUp(c common, d benchDialect, names []string, dg *dirGraph) *fetchEdge {
	idx := make([]int64, len(names))
	labels := make([]string, len(names))
	rows := make([][]any, len(names))
	for i, nm := range names {
		idx[i] = int64(i)
		labels[i] = c.name + " firstName=" + nm
		rows[i] = []any{nm}
	}
	c.labels = labels
	s := &fetchEdge{}
	s.personQuery = personQuery{common: c, query: d.LookUpFirstName(), ids: idx,
		want:    func(_ *refGraph, i int64) int64 { return int64(len(dg.named[names[i]])) },
		wantIDs: func(_ *refGraph, i int64) []int64 { return dg.named[names[i]] }}
	s.stmts, _ = renderAll(c.dialect, s.query, rows)
	if s.stmts != nil {
		s.labels = s.stmts
	}
	s.args = rows
	if c.ref != nil {
		s.ref = &refGraph{}
	}
	return s
}
