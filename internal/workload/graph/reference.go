package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// refGraph is the independent in-memory answer key: the KNOWS graph of a
// data set's CSV files as a compressed adjacency list, read once and then
// shared read-only by every VU. It applies the loader's rules on its own
// (malformed lines, self-friendships, duplicates and edges to unknown
// persons are skipped), so that it agrees with what a load stores without
// sharing its code.
type refGraph struct {
	index map[int64]int32 // person id -> vertex
	ids   []int64         // vertex -> person id
	off   []int32         // adjacency of v: adj[off[v]:off[v+1]]
	adj   []int32
	// maxID is the largest person id.
	maxID int64
	// skipped counts the lines of the person and knows files the
	// reference did not use (malformed, duplicate, self or dangling).
	skipped int64
}

// loadRefGraph reads the person and knows files (every part) of data set
// dir, with dates in format dates.
func loadRefGraph(dir string, dates ldbcfile.DateFormat) (*refGraph, error) {
	g := &refGraph{index: map[int64]int32{}}
	lenient := ldbcfile.Reader{Dates: dates, OnBadLine: func(*ldbcfile.LineError) error { g.skipped++; return nil }}
	read := func(rel string, fn func(f *os.File) error) error {
		parts, err := ldbcfile.Parts(dir, rel)
		if err != nil {
			return err
		}
		for _, p := range parts {
			f, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)))
			if err != nil {
				return err
			}
			err = fn(f)
			f.Close()
			if err != nil {
				return fmt.Errorf("reference: %s: %w", p, err)
			}
		}
		return nil
	}
	err := read(ldbcfile.PersonPath, func(f *os.File) error {
		return lenient.ReadPersons(f, func(p ldbcfile.Person) error {
			if _, dup := g.index[p.ID]; dup {
				g.skipped++
				return nil
			}
			g.index[p.ID] = int32(len(g.ids))
			g.ids = append(g.ids, p.ID)
			g.maxID = max(g.maxID, p.ID)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	var edges [][2]int32
	err = read(ldbcfile.PersonKnowsPersonPath, func(f *os.File) error {
		return lenient.ReadKnows(f, func(a, b int64, _ time.Time) error {
			va, oka := g.index[a]
			vb, okb := g.index[b]
			if oka && okb && va != vb {
				edges = append(edges, [2]int32{va, vb}, [2]int32{vb, va})
			} else {
				g.skipped++
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(edges, func(x, y [2]int32) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	})
	n := len(edges)
	edges = slices.Compact(edges) // a friendship listed twice counts once
	g.skipped += int64(n-len(edges)) / 2
	g.off = make([]int32, len(g.ids)+1)
	g.adj = make([]int32, len(edges))
	for i, e := range edges {
		g.off[e[0]+1]++
		g.adj[i] = e[1]
	}
	for v := range g.ids {
		g.off[v+1] += g.off[v]
	}
	return g, nil
}

func (g *refGraph) neighbours(v int32) []int32 { return g.adj[g.off[v]:g.off[v+1]] }

// persons and knows are the numbers of persons and friendships.
func (g *refGraph) persons() int64 { return int64(len(g.ids)) }
func (g *refGraph) knows() int64   { return int64(len(g.adj) / 2) }

// hasPerson reports whether id is a person of the data set.
func (g *refGraph) hasPerson(id int64) bool { _, ok := g.index[id]; return ok }

// goStep counts the distinct persons at the end of KNOWS walks of exactly
// n steps from start (the start itself included when a walk returns).
func (g *refGraph) goStep(start int64, n int) int64 { return int64(len(g.goFrontier(start, n))) }

// goStepIDs are the ids of those persons, sorted.
func (g *refGraph) goStepIDs(start int64, n int) []int64 {
	f := g.goFrontier(start, n)
	out := make([]int64, len(f))
	for i, v := range f {
		out[i] = g.ids[v]
	}
	slices.Sort(out)
	return out
}

// goFrontier is the vertices at the end of n-step walks from start, each
// once.
func (g *refGraph) goFrontier(start int64, n int) []int32 {
	v, ok := g.index[start]
	if !ok {
		return nil
	}
	seen := make([]int32, len(g.ids)) // level+1 at which a vertex was added
	frontier := []int32{v}
	for level := int32(1); level <= int32(n); level++ {
		var next []int32
		for _, u := range frontier {
			for _, w := range g.neighbours(u) {
				if seen[w] != level {
					seen[w] = level
					next = append(next, w)
				}
			}
		}
		frontier = next
	}
	return frontier
}

// shortestPath is the number of hops of a shortest KNOWS path from a to b:
// 0 when a == b, -1 when there is none of at most maxDepth hops (as LDBC
// IC13 answers -1 for unconnected persons). Plain breadth-first search.
func (g *refGraph) shortestPath(a, b int64, maxDepth int) int64 {
	if a == b {
		return 0
	}
	va, oka := g.index[a]
	vb, okb := g.index[b]
	if !oka || !okb {
		return -1
	}
	dist := make([]int32, len(g.ids))
	for i := range dist {
		dist[i] = -1
	}
	dist[va] = 0
	queue := []int32{va}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if int(dist[u]) >= maxDepth {
			break
		}
		for _, w := range g.neighbours(u) {
			if dist[w] < 0 {
				dist[w] = dist[u] + 1
				if w == vb {
					return int64(dist[w])
				}
				queue = append(queue, w)
			}
		}
	}
	return -1
}
