package datagen

import "fmt"

// graph is the knows graph as adjacency lists in one arena: person s owns
// adj[start[s] : start[s]+target(s)], of which the first deg[s] entries are
// friends (person indexes). This is the only copy of the graph: rows are
// streamed from it to disk and the parameter curation walks it.
type graph struct {
	start []uint32
	deg   []uint16
	adj   []uint32
}

// newGraph reserves room for every person's target degree.
func newGraph(persons []person) (*graph, error) {
	g := &graph{start: make([]uint32, len(persons)+1), deg: make([]uint16, len(persons))}
	var total uint64
	for i := range persons {
		g.start[i] = uint32(total)
		total += uint64(persons[i].degree)
	}
	if total > 1<<32-1 {
		return nil, fmt.Errorf("knows graph too large: %d adjacency entries", total)
	}
	g.start[len(persons)] = uint32(total)
	g.adj = make([]uint32, total)
	return g, nil
}

// friends returns the friends of s, in the order they were made (or sorted,
// once sortFriends ran for s).
func (g *graph) friends(s uint32) []uint32 {
	b := g.start[s]
	return g.adj[b : b+uint32(g.deg[s])]
}

// link makes a and b friends. The caller ensures there is room.
func (g *graph) link(a, b uint32) {
	g.adj[g.start[a]+uint32(g.deg[a])] = b
	g.deg[a]++
	g.adj[g.start[b]+uint32(g.deg[b])] = a
	g.deg[b]++
}

// linked reports whether a and b are friends, scanning the shorter list.
func (g *graph) linked(a, b uint32) bool {
	if g.deg[b] < g.deg[a] {
		a, b = b, a
	}
	for _, f := range g.friends(a) {
		if f == b {
			return true
		}
	}
	return false
}

// edges is the number of friendships.
func (g *graph) edges() int64 {
	var s int64
	for _, d := range g.deg {
		s += int64(d)
	}
	return s / 2
}
