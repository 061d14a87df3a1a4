package datagen

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// The knows passes, after LDBC's knows generator.
//
// Three passes each sort the persons by one correlation dimension and cut
// the order into blocks of blockSize persons. Inside a block each person, in
// order, looks at the persons after it and befriends the one at distance d
// with probability max(linkBase^d, linkFloor) while both still have room in
// this pass's budget. Budgets are cumulative shares of the target degree:
//
//	pass 0  university location, university, class year   45%
//	pass 1  main interest                                   90%
//	pass 2  random                                         100%
//
// so persons close in a dimension are far more likely to be friends, and
// friends of friends overlap as in LDBC. Blocks are independent (disjoint
// persons, one random stream each), so they run in parallel and the result
// does not depend on the number of workers.
const (
	blockSize = 10_000
	linkBase  = 0.95
	linkFloor = 0.2
	passes    = 3
)

// passBudget is the cumulative share of a person's target degree that may be
// used up by the end of each pass.
func passBudget(pass int) float64 {
	return [passes]float64{0.45, 0.90, 1.0}[pass]
}

// linkProbs returns max(linkBase^d, linkFloor) for d in [0, blockSize).
func linkProbs() []float64 {
	p := make([]float64, blockSize)
	for d := range p {
		p[d] = math.Max(math.Pow(linkBase, float64(d)), linkFloor)
	}
	return p
}

// sortKey is the key person s is ordered by in pass; equal keys keep index
// order.
func (g *generator) sortKey(pass int, s int) uint64 {
	p := &g.persons[s]
	h := hash3(g.seed, streamSortKey, uint64(pass)<<32|uint64(s))
	switch pass {
	case 0:
		loc := uint64(p.city)
		if p.univ >= 0 {
			loc = uint64(g.dicts.universities[p.univ].place)
		}
		return loc<<48 | uint64(p.univ+1)<<34 | uint64(p.classYear)<<22 | h&(1<<22-1)
	case 1:
		return uint64(p.interest)<<48 | h&(1<<48-1)
	default:
		return h
	}
}

// generateKnows runs the three passes over g.persons into g.graph.
func (g *generator) generateKnows(ctx context.Context) error {
	n := len(g.persons)
	probs := linkProbs()
	order := make([]uint32, n)
	keys := make([]uint64, n)
	budget := make([]uint16, n)
	for pass := range passes {
		for s := range n {
			order[s] = uint32(s)
			keys[s] = g.sortKey(pass, s)
			budget[s] = uint16(math.Round(float64(g.persons[s].degree) * passBudget(pass)))
		}
		slices.SortStableFunc(order, func(a, b uint32) int { return cmpUint64(keys[a], keys[b]) })
		blocks := (n + blockSize - 1) / blockSize
		err := g.parallel(ctx, blocks, func(r *rng, scratch *[]int32, b int) {
			lo, hi := b*blockSize, min((b+1)*blockSize, n)
			r.reset(g.seed, streamKnows, uint64(pass)<<32|uint64(b))
			g.knowsBlock(r, order[lo:hi], budget, probs, pass > 0, scratch)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// knowsBlock runs the sliding window over one block. next is a union-find
// "next person with room" so full persons are skipped in O(α).
func (g *generator) knowsBlock(r *rng, order []uint32, budget []uint16, probs []float64, checkDup bool, scratch *[]int32) {
	gr := g.graph
	L := len(order)
	if cap(*scratch) < L+1 {
		*scratch = make([]int32, L+1)
	}
	next := (*scratch)[:L+1]
	for i, s := range order {
		next[i] = int32(i)
		if gr.deg[s] >= budget[s] {
			next[i] = int32(i + 1)
		}
	}
	next[L] = int32(L)
	find := func(x int32) int32 {
		for next[x] != x {
			next[x] = next[next[x]]
			x = next[x]
		}
		return x
	}
	for i, a := range order {
		if gr.deg[a] >= budget[a] {
			continue
		}
		for j := find(int32(i + 1)); int(j) < L; j = find(j + 1) {
			if r.Float64() >= probs[int(j)-i] {
				continue
			}
			b := order[j]
			if checkDup && gr.linked(a, b) {
				continue
			}
			gr.link(a, b)
			if gr.deg[b] >= budget[b] {
				next[j] = j + 1
			}
			if gr.deg[a] >= budget[a] {
				break
			}
		}
	}
}

// parallel calls fn(r, scratch, i) for i in [0, n) on g.workers goroutines,
// each with its own rng and scratch buffer, and stops early when ctx ends.
func (g *generator) parallel(ctx context.Context, n int, fn func(r *rng, scratch *[]int32, i int)) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(g.workers, n) {
		wg.Go(func() {
			r := newRNG()
			var scratch []int32
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				fn(r, &scratch, i)
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}
