package datagen

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strconv"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// Substitution-parameter curation, after LDBC's idea (pick parameters that
// make every execution of a query do about the same work) in a simplified
// form; docs/datagen.md describes it for users.
const (
	minParams         = 100   // rows in khop_person.csv and shortest_path.csv at least...
	maxParams         = 5_000 // ...and at most...
	paramsPerPersons  = 100   // ...else one per this many persons
	unconnectedShare  = 0.10  // share of shortest-path pairs in different components
	minInsertPersons  = 10_000
	insertPerPersons  = 10 // insert persons: one per this many persons, at least minInsertPersons
	paramsSelectSeed  = 1  // streamParams indexes
	paramsOrderSeed   = 2
	paramsPairsSeed   = 3
	insertPersonChunk = 4096
)

// paramCount is the number of k-hop persons and of shortest-path pairs for
// n persons.
func paramCount(n int) int {
	return max(minParams, min(maxParams, n/paramsPerPersons))
}

// insertCount is the number of insert persons for n persons.
func insertCount(n int) int {
	return max(minInsertPersons, n/insertPerPersons)
}

// curateKHop picks the start persons of k-hop queries: persons with friends
// whose degree and number of 2-hop paths (sum of the friends' degrees: the
// work of a 2-step expansion) are both closest to the median, so that
// 1-, 2- and 3-hop queries cost about the same from each of them. The
// result is in a seeded random order, not in score order.
func (g *generator) curateKHop() []uint32 {
	gr := g.graph
	var cand []uint32
	for s := range g.persons {
		if gr.deg[s] > 0 {
			cand = append(cand, uint32(s))
		}
	}
	if len(cand) == 0 {
		return nil
	}
	deg := make([]float64, len(cand))
	two := make([]float64, len(cand))
	for i, s := range cand {
		deg[i] = float64(gr.deg[s])
		for _, f := range gr.friends(s) {
			two[i] += float64(gr.deg[f])
		}
	}
	md, mt := median(deg), median(two)
	score := make(map[uint32]float64, len(cand))
	for i, s := range cand {
		score[s] = math.Abs(math.Log(deg[i]/md)) + math.Abs(math.Log(two[i]/mt))
	}
	tie := func(s uint32, k uint64) uint64 { return hash3(g.seed, streamParams, k<<32|uint64(s)) }
	slices.SortFunc(cand, func(a, b uint32) int {
		if c := cmp.Compare(score[a], score[b]); c != 0 {
			return c
		}
		return cmp.Compare(tie(a, paramsSelectSeed), tie(b, paramsSelectSeed))
	})
	sel := cand[:min(len(cand), paramCount(len(g.persons)))]
	slices.SortFunc(sel, func(a, b uint32) int {
		return cmp.Compare(tie(a, paramsOrderSeed), tie(b, paramsOrderSeed))
	})
	return sel
}

func median(x []float64) float64 {
	y := slices.Clone(x)
	slices.Sort(y)
	return y[len(y)/2]
}

// components labels every person with its connected component (by BFS) and
// returns the labels and the label of the largest component.
func (g *generator) components() (comp []int32, giant int32) {
	gr := g.graph
	comp = make([]int32, len(g.persons))
	for i := range comp {
		comp[i] = -1
	}
	var queue []uint32
	best := 0
	for s := range comp {
		if comp[s] >= 0 {
			continue
		}
		c := int32(s) // label: the first member
		comp[s] = c
		queue = append(queue[:0], uint32(s))
		for h := 0; h < len(queue); h++ {
			for _, f := range gr.friends(queue[h]) {
				if comp[f] < 0 {
					comp[f] = c
					queue = append(queue, f)
				}
			}
		}
		if len(queue) > best {
			best, giant = len(queue), c
		}
	}
	return comp, giant
}

// curatePairs picks shortest-path pairs: most of them two distinct persons
// of the k-hop selection that lie in the largest component (so paths exist
// and the searches start from comparable neighbourhoods), and
// unconnectedShare of them with one person outside it (isolated persons or
// small components), for which no path exists. Pairs come in a seeded
// random order.
func (g *generator) curatePairs(khop []uint32) [][2]uint32 {
	comp, giant := g.components()
	var pool, outside []uint32
	for _, s := range khop {
		if comp[s] == giant {
			pool = append(pool, s)
		}
	}
	if len(pool) < 2 {
		pool = pool[:0]
		for s, c := range comp {
			if c == giant {
				pool = append(pool, uint32(s))
			}
		}
	}
	for s, c := range comp {
		if c != giant {
			outside = append(outside, uint32(s))
		}
	}
	total := paramCount(len(g.persons))
	unconnected := 0
	if len(outside) > 0 {
		unconnected = int(math.Round(float64(total) * unconnectedShare))
	}
	if len(pool) < 2 {
		total = unconnected
	}
	r := newRNG()
	r.reset(g.seed, streamParams, paramsPairsSeed)
	pairs := make([][2]uint32, 0, total)
	for len(pairs) < total-unconnected {
		a, b := pool[r.IntN(len(pool))], pool[r.IntN(len(pool))]
		if a != b {
			pairs = append(pairs, [2]uint32{a, b})
		}
	}
	for len(pairs) < total {
		a, b := pool[r.IntN(len(pool))], outside[r.IntN(len(outside))]
		if r.IntN(2) == 1 {
			a, b = b, a
		}
		pairs = append(pairs, [2]uint32{a, b})
	}
	r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	return pairs
}

// writeParams writes the three substitution-parameter files.
func (g *generator) writeParams(ctx context.Context, o *outputs) error {
	khop := g.bulkPersons(g.curateKHop())
	f, err := o.create(ldbcfile.KHopPersonPath, ldbcfile.KHopPersonHeader)
	if err != nil {
		return err
	}
	var b []byte
	for _, s := range khop {
		b = strconv.AppendInt(b, g.persons[s].id, 10)
		b = append(b, '\n')
	}
	if err := o.write(f, b, int64(len(khop))); err != nil {
		return err
	}

	pairs := g.bulkPairs(g.curatePairs(khop))
	if f, err = o.create(ldbcfile.ShortestPathPath, ldbcfile.ShortestPathHeader); err != nil {
		return err
	}
	b = b[:0]
	for _, p := range pairs {
		b = appendPair(b, g.persons[p[0]].id, g.persons[p[1]].id)
	}
	if err := o.write(f, b, int64(len(pairs))); err != nil {
		return err
	}
	o.report()
	return g.writeInsertPersons(ctx, o)
}

// writeInsertPersons writes persons that are not in the data set: indexes
// n, n+1, ... (so their ids cannot collide with generated ones) who join in
// the insertSpanMs after the simulated period.
func (g *generator) writeInsertPersons(ctx context.Context, o *outputs) error {
	f, err := o.create(ldbcfile.InsertPersonPath, ldbcfile.InsertPersonHeader)
	if err != nil {
		return err
	}
	n, m := len(g.persons), insertCount(len(g.persons))
	chunks := (m + insertPersonChunk - 1) / insertPersonChunk
	return ordered(ctx, g.workers, chunks, func() *[]byte { return new([]byte) },
		func(r *rng, b *[]byte, c int) {
			*b = (*b)[:0]
			for i := c * insertPersonChunk; i < min(m, (c+1)*insertPersonChunk); i++ {
				p := g.newPerson(r, int64(n+i), endMs, insertSpanMs)
				*b = g.appendPersonRow(*b, &p)
			}
		},
		func(b *[]byte, c int) error {
			rows := int64(min(m, (c+1)*insertPersonChunk) - c*insertPersonChunk)
			err := o.write(f, *b, rows)
			o.report()
			return err
		})
}
