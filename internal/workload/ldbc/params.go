package ldbc

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/stampede-bench/stampede/internal/workload/ldbc/ldbcfile"
)

// Parameter orders (--param-order).
const (
	OrderRoundRobin = "roundrobin"
	OrderRandom     = "random"
)

// params are the substitution parameters of a data set.
type params struct {
	khop   []int64    // start persons of go.* and fetch.FetchTag
	pairs  [][2]int64 // person pairs of find_path.FindShortestPath
	insert []ldbcfile.Person
}

// loadParams reads the substitution-parameter files the named scenarios
// need (strictly: a broken parameter file is an error).
func loadParams(dir string, needKHop, needPairs, needInsert bool) (*params, error) {
	p := &params{}
	read := func(rel string, fn func(f *os.File) error) error {
		f, err := os.Open(filepath.Join(dir, rel))
		if err != nil {
			return err
		}
		defer f.Close()
		if err := fn(f); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return nil
	}
	if needKHop {
		if err := read(ldbcfile.KHopPersonPath, func(f *os.File) error {
			return ldbcfile.ReadKHopPersons(f, func(id int64) error { p.khop = append(p.khop, id); return nil })
		}); err != nil {
			return nil, err
		}
		if len(p.khop) == 0 {
			return nil, fmt.Errorf("%s has no rows", ldbcfile.KHopPersonPath)
		}
	}
	if needPairs {
		if err := read(ldbcfile.ShortestPathPath, func(f *os.File) error {
			return ldbcfile.ReadShortestPathPairs(f, func(a, b int64) error { p.pairs = append(p.pairs, [2]int64{a, b}); return nil })
		}); err != nil {
			return nil, err
		}
		if len(p.pairs) == 0 {
			return nil, fmt.Errorf("%s has no rows", ldbcfile.ShortestPathPath)
		}
	}
	if needInsert {
		if err := read(ldbcfile.InsertPersonPath, func(f *os.File) error {
			return ldbcfile.ReadInsertPersons(f, func(q ldbcfile.Person) error { p.insert = append(p.insert, q); return nil })
		}); err != nil {
			return nil, err
		}
		if len(p.insert) == 0 {
			return nil, fmt.Errorf("%s has no rows", ldbcfile.InsertPersonPath)
		}
	}
	return p, nil
}

// feeder hands out parameter row indexes: round-robin over a counter
// shared by all VUs of a scenario (each row in turn, whichever VU asks),
// or at random from a per-VU generator seeded by (seed, VU id), so a run
// is reproducible per VU.
type feeder struct {
	n      int
	random bool
	seed   int64
	next   atomic.Uint64
}

func newFeeder(n int, order string, seed int64) *feeder {
	return &feeder{n: n, random: order == OrderRandom, seed: seed}
}

// vuFeeder is one VU's view of a feeder; not safe for concurrent use.
type vuFeeder struct {
	f   *feeder
	rng *rand.Rand
}

func (f *feeder) forVU(id int) *vuFeeder {
	v := &vuFeeder{f: f}
	if f.random {
		v.rng = rand.New(rand.NewPCG(uint64(f.seed), uint64(id)))
	}
	return v
}

// pick returns the next row index in [0, n).
func (v *vuFeeder) pick() int {
	if v.rng != nil {
		return v.rng.IntN(v.f.n)
	}
	return int((v.f.next.Add(1) - 1) % uint64(v.f.n))
}

// take claims k consecutive rows for one VU and returns the absolute
// position of the first: row (start+j) % n of pass (start+j) / n.
func (f *feeder) take(k int) (start uint64) {
	return f.next.Add(uint64(k)) - uint64(k)
}
