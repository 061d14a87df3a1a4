package graph

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// idSet is one checked answer whose rows are ids (GO N STEP, LOOKUP): the
// ids read from the rows in order, and the rows whose first value was not
// an integer. A VU reuses it between iterations.
type idSet struct {
	ids    []int64
	notIDs int64
}

// reset empties s for the next answer.
func (s *idSet) reset() { s.ids, s.notIDs = s.ids[:0], 0 }

// add reads the id of one row: its first value, an integer.
func (s *idSet) add(vals []any) error {
	if len(vals) > 0 {
		if id, ok := asInt(vals[0]); ok {
			s.ids = append(s.ids, id)
			return nil
		}
	}
	s.notIDs++
	return nil
}

// asInt is an integer value a driver returned (SQLite and PostgreSQL
// BIGINT, a NebulaGraph INT64 vid or a path's number of steps).
func asInt(x any) (int64, bool) {
	switch v := x.(type) {
	case int64:
		return v, true
	case int32:
		return int64(v), true
	case int:
		return int64(v), true
	case float64:
		if v == float64(int64(v)) {
			return int64(v), true
		}
	}
	return 0, false
}

// diff compares the answer, rows rows long, with the reference ids want
// (each once, in any order): nil when the rows are exactly that set, else
// a wrong-result error that counts what differed, e.g. "wrong result: 10
// rows, 3 ids not in the reference, 3 reference ids missing". It sorts
// s.ids in place.
func (s *idSet) diff(rows int64, want []int64) error {
	slices.Sort(s.ids)
	var extra, repeated, found int64
	for i, id := range s.ids {
		if i > 0 && s.ids[i-1] == id {
			repeated++
			continue
		}
		if _, ok := slices.BinarySearch(want, id); ok {
			found++
		} else {
			extra++
		}
	}
	missing := int64(len(want)) - found
	if extra == 0 && repeated == 0 && missing == 0 && s.notIDs == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("wrong result: ")
	b.WriteString(strconv.FormatInt(rows, 10))
	b.WriteString(" rows")
	part := func(n int64, what string) {
		if n > 0 {
			fmt.Fprintf(&b, ", %d %s", n, what)
		}
	}
	part(extra, "ids not in the reference")
	part(missing, "reference ids missing")
	part(repeated, "ids repeated")
	part(s.notIDs, "rows without an integer id")
	return fmt.Errorf("%s", b.String())
}

// pathLengths is one checked shortest-path answer: the length of every
// path row (a target may return one row per shortest path), and the rows
// whose first value was not a length.
type pathLengths struct {
	lens []int64
	bad  int64
}

func (p *pathLengths) reset() { p.lens, p.bad = p.lens[:0], 0 }

func (p *pathLengths) add(vals []any) error {
	if len(vals) > 0 {
		if n, ok := asInt(vals[0]); ok {
			p.lens = append(p.lens, n)
			return nil
		}
	}
	p.bad++
	return nil
}

// diff compares the answer with the reference length want (-1: no path).
// perPath says the target answers a row per shortest path and no row when
// there is none (nGQL); otherwise it answers exactly one row holding the
// length (SQL). Every row is checked.
func (p *pathLengths) diff(perPath bool, want int64) error {
	rows := int64(len(p.lens)) + p.bad
	if perPath {
		if rows == 0 {
			if want == -1 {
				return nil
			}
			return wrongResult("path length", -1, want)
		}
		if want == -1 {
			return fmt.Errorf("wrong result: %d paths, the reference has none", rows)
		}
	} else if rows != 1 {
		return wrongResult("rows", rows, 1)
	}
	var wrong int64
	first := int64(0)
	for _, n := range p.lens {
		if n != want {
			if wrong == 0 {
				first = n
			}
			wrong++
		}
	}
	switch {
	case p.bad > 0:
		return fmt.Errorf("wrong result: %d of %d rows without a path length", p.bad, rows)
	case wrong == 0:
		return nil
	case rows == 1:
		return wrongResult("path length", first, want)
	}
	return fmt.Errorf("wrong result: %d of %d paths not of the reference length %d", wrong, rows, want)
}

// answer is what the per-request log's answer column shows: the first
// row's length, -1 when a per-path target returned none; ok is false when
// there is no length to show.
func (p *pathLengths) answer(perPath bool) (int64, bool) {
	switch {
	case len(p.lens) > 0:
		return p.lens[0], true
	case perPath && p.bad == 0:
		return -1, true
	}
	return 0, false
}
