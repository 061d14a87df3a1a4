package graph

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/stampede-bench/stampede/families/graph/graphopt"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// Parameter orders (--param-order).
const (
	OrderRoundRobin = graphopt.OrderRoundRobin
	OrderRandom     = graphopt.OrderRandom
)

// params are the substitution parameters of a data set.
type params struct {
	khop   []int64    // start persons of go.* and fetch.FetchTag
	pairs  [][2]int64 // person pairs of find_path.FindShortestPath
	insert []ldbcfile.Person
	// khopFrom, pairsFrom and insertFrom say where each came from.
	khopFrom, pairsFrom, insertFrom string
}

// maxInsertTemplates bounds the persons of the data set used as templates
// for inserted persons when it has no insert_person.csv.
const maxInsertTemplates = 10_000

// loadParams reads the substitution parameters the named scenarios need
// (strictly: a broken parameter file is an error): stampede's own files
// when the data set has them, else LDBC's Interactive ones (IC1 and IC2
// person ids for the k-hop and fetch scenarios, IC13 person pairs for
// shortest paths); inserts without insert_person.csv take the data set's
// first persons as templates (the scenario gives them new ids).
func loadParams(dir string, dates ldbcfile.DateFormat, needKHop, needPairs, needInsert bool) (*params, error) {
	p := &params{}
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
		return err == nil
	}
	read := func(rel string, fn func(f *os.File) error) error {
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		defer f.Close()
		if err := fn(f); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return nil
	}
	rd := ldbcfile.Reader{Dates: dates}
	if needKHop {
		var from []string
		if exists(ldbcfile.KHopPersonPath) {
			from = []string{ldbcfile.KHopPersonPath}
			if err := read(ldbcfile.KHopPersonPath, func(f *os.File) error {
				return rd.ReadKHopPersons(f, func(id int64) error { p.khop = append(p.khop, id); return nil })
			}); err != nil {
				return nil, err
			}
		} else {
			seen := map[int64]bool{}
			for _, n := range []int{1, 2} {
				rel := ldbcfile.InteractiveParamPath(n)
				if !exists(rel) {
					continue
				}
				from = append(from, rel)
				if err := read(rel, func(f *os.File) error {
					return rd.ReadIDColumns(f, []string{"personId"}, func(ids []int64) error {
						if !seen[ids[0]] {
							seen[ids[0]] = true
							p.khop = append(p.khop, ids[0])
						}
						return nil
					})
				}); err != nil {
					return nil, err
				}
			}
			if len(from) == 0 {
				return nil, fmt.Errorf("no start persons for go.* and fetch.FetchTag: want %s (stampede gen ldbc) or LDBC's %s or %s",
					ldbcfile.KHopPersonPath, ldbcfile.InteractiveParamPath(1), ldbcfile.InteractiveParamPath(2))
			}
		}
		if len(p.khop) == 0 {
			return nil, fmt.Errorf("%s has no rows", strings.Join(from, " and "))
		}
		p.khopFrom = fmt.Sprintf("%s (%d persons)", strings.Join(from, " + "), len(p.khop))
	}
	if needPairs {
		rel := ldbcfile.ShortestPathPath
		var err error
		switch {
		case exists(rel):
			err = read(rel, func(f *os.File) error {
				return rd.ReadShortestPathPairs(f, func(a, b int64) error { p.pairs = append(p.pairs, [2]int64{a, b}); return nil })
			})
		case exists(ldbcfile.InteractiveParamPath(13)):
			rel = ldbcfile.InteractiveParamPath(13)
			err = read(rel, func(f *os.File) error {
				return rd.ReadIDColumns(f, []string{"person1Id", "person2Id"}, func(ids []int64) error {
					p.pairs = append(p.pairs, [2]int64{ids[0], ids[1]})
					return nil
				})
			})
		default:
			return nil, fmt.Errorf("no person pairs for find_path.FindShortestPath: want %s (stampede gen ldbc) or LDBC's %s",
				ldbcfile.ShortestPathPath, ldbcfile.InteractiveParamPath(13))
		}
		if err != nil {
			return nil, err
		}
		if len(p.pairs) == 0 {
			return nil, fmt.Errorf("%s has no rows", rel)
		}
		p.pairsFrom = fmt.Sprintf("%s (%d pairs)", rel, len(p.pairs))
	}
	if needInsert {
		if exists(ldbcfile.InsertPersonPath) {
			if err := read(ldbcfile.InsertPersonPath, func(f *os.File) error {
				return rd.ReadInsertPersons(f, func(q ldbcfile.Person) error { p.insert = append(p.insert, q); return nil })
			}); err != nil {
				return nil, err
			}
			p.insertFrom = fmt.Sprintf("%s (%d persons)", ldbcfile.InsertPersonPath, len(p.insert))
		} else {
			parts, err := ldbcfile.Parts(dir, ldbcfile.PersonPath)
			if err != nil {
				return nil, err
			}
			errEnough := errors.New("enough")
			lenient := ldbcfile.Reader{Dates: dates, OnBadLine: func(*ldbcfile.LineError) error { return nil }}
			if err := read(parts[0], func(f *os.File) error {
				err := lenient.ReadPersons(f, func(q ldbcfile.Person) error {
					p.insert = append(p.insert, q)
					if len(p.insert) == maxInsertTemplates {
						return errEnough
					}
					return nil
				})
				if errors.Is(err, errEnough) {
					return nil
				}
				return err
			}); err != nil {
				return nil, err
			}
			p.insertFrom = fmt.Sprintf("the first %d persons of %s as templates (no %s)", len(p.insert), parts[0], ldbcfile.InsertPersonPath)
		}
		if len(p.insert) == 0 {
			return nil, fmt.Errorf("no persons to insert")
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
