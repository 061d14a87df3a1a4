package nebulatest

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// Store is the in-memory graph behind one stand-in cluster: spaces with
// tags, edge types, vertices and edges, shared by every graphd of the
// cluster. Safe for concurrent use.
type Store struct {
	mu     sync.RWMutex
	spaces map[string]*space
	jobs   int64
	// SchemaLag is how long a new tag or edge type stays invisible to
	// statements, as a real cluster's schema reaches its graphds only with
	// their next meta heartbeat. Set before use.
	SchemaLag time.Duration
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{spaces: map[string]*space{}} }

type schema struct {
	props []string
	types []string  // lower-case type names of props ("string", "int", "datetime", "fixed_string", ...)
	at    time.Time // created
}

type space struct {
	name            string
	parts, replicas int64
	vidType         string
	tags, edges     map[string]*schema
	indexes         map[string]string // index name -> tag
	verts           map[string]map[int64][]*graphsvc.Value
	edata           map[string]map[[2]int64][]*graphsvc.Value
	out, in         map[string]map[int64][]int64
}

func newSpace(name string, parts, replicas int64, vid string) *space {
	return &space{name: name, parts: parts, replicas: replicas, vidType: vid,
		tags: map[string]*schema{}, edges: map[string]*schema{}, indexes: map[string]string{},
		verts: map[string]map[int64][]*graphsvc.Value{}, edata: map[string]map[[2]int64][]*graphsvc.Value{},
		out: map[string]map[int64][]int64{}, in: map[string]map[int64][]int64{}}
}

// visible returns the schema of name when it exists and its lag passed.
func (s *Store) visible(m map[string]*schema, name string) *schema {
	sc := m[name]
	if sc == nil || time.Since(sc.at) < s.SchemaLag {
		return nil
	}
	return sc
}

func (sp *space) putVertex(tag string, vid int64, props []*graphsvc.Value) {
	m := sp.verts[tag]
	if m == nil {
		m = map[int64][]*graphsvc.Value{}
		sp.verts[tag] = m
	}
	m[vid] = props
}

func (sp *space) putEdge(edge string, a, b int64, props []*graphsvc.Value) {
	m := sp.edata[edge]
	if m == nil {
		m = map[[2]int64][]*graphsvc.Value{}
		sp.edata[edge] = m
		sp.out[edge] = map[int64][]int64{}
		sp.in[edge] = map[int64][]int64{}
	}
	k := [2]int64{a, b}
	if _, ok := m[k]; !ok {
		sp.out[edge][a] = append(sp.out[edge][a], b)
		sp.in[edge][b] = append(sp.in[edge][b], a)
	}
	m[k] = props
}

// neighbours lists the vertices one edge of type edge away from v, in
// the direction dir ("out", "in", "both"); an edge in both directions
// between the same two vertices counts twice with "both".
func (sp *space) neighbours(edge string, v int64, dir string) []int64 {
	switch dir {
	case "out":
		return sp.out[edge][v]
	case "in":
		return sp.in[edge][v]
	}
	o, i := sp.out[edge][v], sp.in[edge][v]
	if len(i) == 0 {
		return o
	}
	return append(append(make([]int64, 0, len(o)+len(i)), o...), i...)
}

func (sp *space) hasVertex(v int64) bool {
	for _, m := range sp.verts {
		if _, ok := m[v]; ok {
			return true
		}
	}
	return false
}

func (sp *space) count(tagOrEdge string, edge bool) int64 {
	if edge {
		return int64(len(sp.edata[tagOrEdge]))
	}
	return int64(len(sp.verts[tagOrEdge]))
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func str(s string) *graphsvc.Value              { return &graphsvc.Value{SVal: []byte(s)} }
func i64(v int64) *graphsvc.Value               { return &graphsvc.Value{IVal: &v} }
func null() *graphsvc.Value                     { n := graphsvc.NullType___NULL__; return &graphsvc.Value{NVal: &n} }
func row(vals ...*graphsvc.Value) *graphsvc.Row { return &graphsvc.Row{Values: vals} }

func dataset(cols []string, rows []*graphsvc.Row) *graphsvc.DataSet {
	ds := &graphsvc.DataSet{Rows: rows}
	for _, c := range cols {
		ds.ColumnNames = append(ds.ColumnNames, []byte(c))
	}
	if ds.Rows == nil {
		ds.Rows = []*graphsvc.Row{}
	}
	return ds
}

func lower(s string) string { return strings.ToLower(s) }
