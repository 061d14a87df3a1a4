package nebulatest

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// The stand-in's MATCH: an interpreter of the openCypher subset of nGQL
// 3.x that the LDBC Interactive reads use, run over the store row by row.
//
//	[OPTIONAL] MATCH pattern[, pattern...] [WHERE cond]
//	WITH [DISTINCT] expr [AS name], ... [ORDER BY expr [ASC|DESC], ...] [SKIP n] [LIMIT n] [WHERE cond]
//	RETURN [DISTINCT] expr [AS name], ... [ORDER BY ...] [SKIP n] [LIMIT n]
//
// A pattern is a chain (v:Tag)-[e:TYPE|TYPE2 *min..max]->(w)<-[...]-(...),
// edges out (->), in (<-) or either way (-); variable-length hops are
// trails (no edge twice within one pattern), e binds the list of edges.
// Expressions: literals, lists, maps, v.Tag.prop, e.prop, map.key,
// list[i], + - * / %, comparisons, AND/OR/XOR/NOT, IS [NOT] NULL, IN,
// CASE, and the functions id, properties, coalesce, size, length, head,
// last, toString, toInteger, timestamp, datetime, date, and the
// aggregates count, collect, min, max, sum, avg (grouping by the other
// items). Every pattern starts from a vertex bound by an earlier clause
// or fixed by `id(v) == ...` / `id(v) IN [...]` in the WHERE, as graphd
// needs (a tag index scan is not modelled): otherwise the statement fails
// as graphd's does, "Can't solve the start vids". ORDER BY takes only a
// column of the projection (its name, or an expression it projects).
//
// Not modelled: path variables, shortestPath() in MATCH, UNWIND,
// property maps in patterns, multiple labels' semantics beyond "has
// every tag", edge ranks, query plans and their limits.

type nodePat struct {
	v      string
	labels []string
}

type relPat struct {
	v        string
	types    []string
	dir      string // out, in, both (as written, left to right)
	varLen   bool
	min, max int
}

type pattern struct {
	nodes []nodePat
	rels  []relPat
}

type item struct {
	e     *expr
	alias string
}

type orderItem struct {
	e    *expr
	desc bool
}

type clause struct {
	kind     string // match optional with return
	patterns []pattern
	where    *expr
	items    []item
	distinct bool
	order    []orderItem
	skip     int64
	limit    int64 // -1: none
}

// parseMatch parses a MATCH statement (after the first keyword was
// peeked, not consumed).
func parseMatch(p *parser) ([]clause, error) {
	var out []clause
	anon := 0
	for p.peek().kind != tEOF {
		var c clause
		switch {
		case p.kw("OPTIONAL", "MATCH"):
			c.kind = "optional"
		case p.kw("MATCH"):
			c.kind = "match"
		case p.kw("WITH"):
			c.kind = "with"
		case p.kw("RETURN"):
			c.kind = "return"
		default:
			return nil, p.errorf("the stand-in's MATCH does not know this clause")
		}
		if len(out) > 0 && out[len(out)-1].kind == "return" {
			return nil, p.errorf("RETURN must be the last clause")
		}
		var err error
		if c.kind == "match" || c.kind == "optional" {
			for {
				pt, err := parsePattern(p, &anon)
				if err != nil {
					return nil, err
				}
				c.patterns = append(c.patterns, pt)
				if !p.punct(",") {
					break
				}
			}
			if p.kw("WHERE") {
				if c.where, err = p.parseExpr(); err != nil {
					return nil, err
				}
			}
		} else {
			if err := parseProjection(p, &c); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	if len(out) == 0 || out[len(out)-1].kind != "return" {
		return nil, p.errorf("a MATCH statement ends with RETURN")
	}
	return out, nil
}

func parseProjection(p *parser, c *clause) error {
	c.distinct = p.kw("DISTINCT")
	c.limit = -1
	for {
		e, err := p.parseExpr()
		if err != nil {
			return err
		}
		it := item{e: e, alias: e.text}
		if e.op == "var" {
			it.alias = e.name
		}
		if p.kw("AS") {
			if it.alias, err = p.ident(); err != nil {
				return err
			}
		}
		c.items = append(c.items, it)
		if !p.punct(",") {
			break
		}
	}
	if p.kw("ORDER", "BY") {
		for {
			e, err := p.parseExpr()
			if err != nil {
				return err
			}
			if !sortable(e, c.items) {
				return fmt.Errorf("SemanticError: Order by with invalid expression `%s' (sort by a column of the projection)", e.text)
			}
			o := orderItem{e: e}
			if p.kw("DESC") || p.kw("DESCENDING") {
				o.desc = true
			} else if !p.kw("ASC") {
				p.kw("ASCENDING")
			}
			c.order = append(c.order, o)
			if !p.punct(",") {
				break
			}
		}
	}
	var err error
	if p.kw("SKIP") {
		if c.skip, err = p.int(); err != nil {
			return err
		}
	}
	if p.kw("LIMIT") {
		if c.limit, err = p.int(); err != nil {
			return err
		}
	}
	if c.kind == "with" && p.kw("WHERE") {
		if c.where, err = p.parseExpr(); err != nil {
			return err
		}
	}
	return nil
}

// sortable reports whether ORDER BY may sort by e: a column's name, or
// an expression the projection has as a column. graphd refuses other sort
// items; the stand-in does too, so that statements passing here keep to
// what graphd accepts.
func sortable(e *expr, items []item) bool {
	for _, it := range items {
		if (e.op == "var" && e.name == it.alias) || e.text == it.e.text {
			return true
		}
	}
	return false
}

func parsePattern(p *parser, anon *int) (pattern, error) {
	var pt pattern
	node := func() error {
		if err := p.expectPunct("("); err != nil {
			return err
		}
		var n nodePat
		if t := p.peek(); t.kind == tIdent {
			n.v = t.text
			p.next()
		} else {
			*anon++
			n.v = " n" + strconv.Itoa(*anon)
		}
		for p.punct(":") {
			l, err := p.ident()
			if err != nil {
				return err
			}
			n.labels = append(n.labels, l)
		}
		if p.peek().text == "{" {
			return p.errorf("the stand-in does not support property maps in patterns")
		}
		pt.nodes = append(pt.nodes, n)
		return p.expectPunct(")")
	}
	if t := p.peek(); t.kind == tIdent && p.toks[p.i+1].text == "=" {
		return pt, p.errorf("the stand-in does not support path variables")
	}
	if err := node(); err != nil {
		return pt, err
	}
	for {
		var r relPat
		switch {
		case p.punct("<"):
			if err := p.expectPunct("-"); err != nil {
				return pt, err
			}
			r.dir = "in"
		case p.punct("-"):
			r.dir = "both"
		default:
			return pt, nil
		}
		*anon++
		r.v = " e" + strconv.Itoa(*anon)
		if err := p.expectPunct("["); err != nil {
			return pt, err
		}
		if t := p.peek(); t.kind == tIdent {
			r.v = t.text
			p.next()
		}
		if p.punct(":") {
			for {
				t, err := p.ident()
				if err != nil {
					return pt, err
				}
				r.types = append(r.types, t)
				if !p.punct("|") {
					break
				}
				p.punct(":")
			}
		}
		if p.punct("*") {
			r.varLen, r.min, r.max = true, 1, math.MaxInt32
			if p.peek().kind == tInt {
				n, _ := p.int()
				r.min, r.max = int(n), int(n)
			}
			if p.punct("..") {
				r.max = math.MaxInt32
				if p.peek().kind == tInt {
					n, _ := p.int()
					r.max = int(n)
				}
			}
		}
		if err := p.expectPunct("]"); err != nil {
			return pt, err
		}
		switch {
		case p.punct("->"):
			if r.dir == "in" {
				return pt, p.errorf("an edge pattern cannot point both ways")
			}
			r.dir = "out"
		case p.punct("-"):
		default:
			return pt, p.errorf("expected - or ->")
		}
		pt.rels = append(pt.rels, r)
		if err := node(); err != nil {
			return pt, err
		}
	}
}

// match runs a MATCH statement.
func (s *Store) match(sp *space, p *parser) (*graphsvc.DataSet, *stmtError) {
	clauses, err := parseMatch(p)
	if err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, c := range clauses {
		for _, pt := range c.patterns {
			for _, n := range pt.nodes {
				for _, l := range n.labels {
					if s.visible(sp.tags, l) == nil {
						return nil, errf(graphsvc.ErrorCode_E_SEMANTIC_ERROR, "SemanticError: `%s': Unknown tag", l)
					}
				}
			}
			for _, r := range pt.rels {
				for _, t := range r.types {
					if s.visible(sp.edges, t) == nil {
						return nil, errf(graphsvc.ErrorCode_E_SEMANTIC_ERROR, "SemanticError: `%s': Unknown edge type", t)
					}
				}
			}
		}
	}
	ev := &evaluator{sp: sp}
	rows := []binding{{}}
	for _, c := range clauses {
		switch c.kind {
		case "match", "optional":
			rows, err = ev.runMatch(c, rows)
		default:
			var cols []string
			var out [][]val
			rows, cols, out, err = ev.project(c, rows)
			if c.kind == "return" && err == nil {
				ds := dataset(cols, nil)
				for _, r := range out {
					vs := make([]*graphsvc.Value, len(r))
					for i, v := range r {
						vs[i] = toGS(v)
					}
					ds.Rows = append(ds.Rows, row(vs...))
				}
				return ds, nil
			}
		}
		if err != nil {
			return nil, errf(graphsvc.ErrorCode_E_SEMANTIC_ERROR, "%v", err)
		}
	}
	return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: no RETURN")
}

// runMatch extends every row with the matches of c's patterns.
func (ev *evaluator) runMatch(c clause, rows []binding) ([]binding, error) {
	var out []binding
	for _, r := range rows {
		cur := []binding{r}
		for _, pt := range c.patterns {
			var next []binding
			for _, b := range cur {
				ms, err := ev.matchPattern(pt, b, c.where)
				if err != nil {
					return nil, err
				}
				next = append(next, ms...)
			}
			cur = next
		}
		n := 0
		for _, b := range cur {
			if c.where != nil {
				v, err := ev.eval(c.where, b, nil)
				if err != nil {
					return nil, err
				}
				if !v.truthy() {
					continue
				}
			}
			out = append(out, b)
			n++
		}
		if n == 0 && c.kind == "optional" {
			b := maps.Clone(r)
			for _, pt := range c.patterns {
				for _, nd := range pt.nodes {
					if _, ok := b[nd.v]; !ok {
						b[nd.v] = nullVal
					}
				}
				for _, rl := range pt.rels {
					if _, ok := b[rl.v]; !ok {
						b[rl.v] = nullVal
					}
				}
			}
			out = append(out, b)
		}
	}
	return out, nil
}

// startVids finds the vertices variable v can start from: id(v) == x or
// id(v) IN [..] among the conjuncts of where, x evaluated on row.
func (ev *evaluator) startVids(v string, where *expr, row binding) ([]int64, bool) {
	if where == nil {
		return nil, false
	}
	if where.op == "bin" && where.name == "AND" {
		if ids, ok := ev.startVids(v, where.args[0], row); ok {
			return ids, true
		}
		return ev.startVids(v, where.args[1], row)
	}
	if where.op != "bin" || (where.name != "==" && where.name != "IN") {
		return nil, false
	}
	isID := func(e *expr) bool {
		return e.op == "call" && e.name == "id" && len(e.args) == 1 && e.args[0].op == "var" && e.args[0].name == v
	}
	l, r := where.args[0], where.args[1]
	if !isID(l) {
		if where.name != "==" || !isID(r) {
			return nil, false
		}
		l, r = r, l
	}
	x, err := ev.eval(r, row, nil)
	if err != nil {
		return nil, false
	}
	switch {
	case where.name == "==" && x.k == kInt:
		return []int64{x.i}, true
	case where.name == "IN" && x.k == kList:
		var ids []int64
		for _, y := range x.list {
			if y.k == kInt {
				ids = append(ids, y.i)
			}
		}
		return ids, true
	case where.name == "==":
		return []int64{}, true // no vertex has a non-integer id
	}
	return nil, false
}

// matchPattern returns row extended by every match of pt.
func (ev *evaluator) matchPattern(pt pattern, row binding, where *expr) ([]binding, error) {
	start, starts := -1, []int64(nil)
	for i, n := range pt.nodes {
		if v, ok := row[n.v]; ok {
			if v.k != kVertex {
				return nil, nil // NULL from an OPTIONAL MATCH: nothing matches
			}
			start, starts = i, []int64{v.i}
			break
		}
	}
	if start < 0 {
		for i, n := range pt.nodes {
			if ids, ok := ev.startVids(n.v, where, row); ok {
				start = i
				for _, id := range ids {
					if ev.sp.hasVertex(id) { // as graphd, no row for a vid without a vertex
						starts = append(starts, id)
					}
				}
				break
			}
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("SemanticError: Can't solve the start vids from the sentence")
	}
	var out []binding
	used := map[edgeRef]bool{}
	for _, vid := range starts {
		b := maps.Clone(row)
		if !ev.bindNode(pt.nodes[start], vid, b) {
			continue
		}
		// Right of the start, then left of it (walking the edges
		// backwards).
		ev.extend(pt, start, 1, b, used, func(b binding) {
			ev.extend(pt, start, -1, b, used, func(b binding) {
				out = append(out, maps.Clone(b))
			})
		})
	}
	return out, nil
}

// bindNode checks vertex vid against node pattern n and binds it in b.
func (ev *evaluator) bindNode(n nodePat, vid int64, b binding) bool {
	for _, l := range n.labels {
		if !ev.sp.hasTag(l, vid) {
			return false
		}
	}
	if v, ok := b[n.v]; ok {
		return v.k == kVertex && v.i == vid
	}
	b[n.v] = val{k: kVertex, i: vid}
	return true
}

// extend matches the pattern from node i in direction step (+1 right,
// -1 left) to its end, calling emit with each complete binding.
func (ev *evaluator) extend(pt pattern, i, step int, b binding, used map[edgeRef]bool, emit func(binding)) {
	next := i + step
	if next < 0 || next >= len(pt.nodes) {
		emit(b)
		return
	}
	r := pt.rels[min(i, next)]
	dir := r.dir
	if step < 0 {
		dir = map[string]string{"out": "in", "in": "out", "both": "both"}[dir]
	}
	from := b[pt.nodes[i].v].i
	n := pt.nodes[next]
	try := func(to int64, edges []edgeRef) {
		prev, had := b[n.v]
		prevRel, hadRel := b[r.v]
		if !ev.bindNode(n, to, b) {
			return
		}
		if r.varLen {
			l := val{k: kList, list: make([]val, len(edges))}
			for k := range edges {
				l.list[k] = val{k: kEdge, e: &edges[k]}
			}
			b[r.v] = l
		} else {
			b[r.v] = val{k: kEdge, e: &edges[0]}
		}
		if !hadRel || (!r.varLen && prevRel.k == kEdge && *prevRel.e == edges[0]) {
			ev.extend(pt, next, step, b, used, emit)
		}
		if had {
			b[n.v] = prev
		} else {
			delete(b, n.v)
		}
		if hadRel {
			b[r.v] = prevRel
		} else {
			delete(b, r.v)
		}
	}
	types := r.types
	if len(types) == 0 {
		types = sortedKeys(ev.sp.edges)
	}
	var walk func(v int64, depth int, path []edgeRef)
	walk = func(v int64, depth int, path []edgeRef) {
		if depth >= r.min {
			try(v, slices.Clone(path))
		}
		if depth >= r.max {
			return
		}
		for _, t := range types {
			ev.sp.eachEdge(t, v, dir, func(e edgeRef, w int64) {
				if used[e] {
					return
				}
				used[e] = true
				walk(w, depth+1, append(path, e))
				delete(used, e)
			})
		}
	}
	if r.varLen {
		walk(from, 0, nil)
		return
	}
	for _, t := range types {
		ev.sp.eachEdge(t, from, dir, func(e edgeRef, w int64) {
			if used[e] {
				return
			}
			used[e] = true
			try(w, []edgeRef{e})
			delete(used, e)
		})
	}
}

// project runs WITH or RETURN: the new rows (bindings of the items'
// names), and for RETURN the column names and values in item order.
func (ev *evaluator) project(c clause, rows []binding) ([]binding, []string, [][]val, error) {
	agg := false
	for _, it := range c.items {
		agg = agg || it.e.hasAgg()
	}
	type outRow struct {
		vals  []val
		scope binding // for ORDER BY: the items' names over the input row
	}
	var out []outRow
	evalItems := func(first binding, group []binding) (outRow, error) {
		o := outRow{vals: make([]val, len(c.items)), scope: binding{}}
		if !agg {
			maps.Copy(o.scope, first)
		}
		for i, it := range c.items {
			v, err := ev.eval(it.e, first, group)
			if err != nil {
				return o, err
			}
			o.vals[i] = v
			o.scope[it.alias] = v
		}
		return o, nil
	}
	if agg {
		var order []string
		groups := map[string][]binding{}
		for _, r := range rows {
			k := ""
			for _, it := range c.items {
				if it.e.hasAgg() {
					continue
				}
				v, err := ev.eval(it.e, r, nil)
				if err != nil {
					return nil, nil, nil, err
				}
				k += v.key()
			}
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], r)
		}
		if len(rows) == 0 && len(c.items) > 0 && allAgg(c.items) {
			order, groups[""] = []string{""}, []binding{}
		}
		for _, k := range order {
			g := groups[k]
			first := binding{}
			if len(g) > 0 {
				first = g[0]
			}
			o, err := evalItems(first, g)
			if err != nil {
				return nil, nil, nil, err
			}
			out = append(out, o)
		}
	} else {
		for _, r := range rows {
			o, err := evalItems(r, nil)
			if err != nil {
				return nil, nil, nil, err
			}
			out = append(out, o)
		}
	}
	if c.distinct {
		seen := map[string]bool{}
		kept := out[:0]
		for _, o := range out {
			k := ""
			for _, v := range o.vals {
				k += v.key()
			}
			if !seen[k] {
				seen[k] = true
				kept = append(kept, o)
			}
		}
		out = kept
	}
	if len(c.order) > 0 {
		keys := make([][]val, len(out))
		for i, o := range out {
			for _, ob := range c.order {
				v, err := ev.eval(ob.e, o.scope, nil)
				if err != nil {
					return nil, nil, nil, err
				}
				keys[i] = append(keys[i], v)
			}
		}
		idx := make([]int, len(out))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			for k, ob := range c.order {
				c := sortCompare(keys[a][k], keys[b][k])
				if ob.desc {
					c = -c
				}
				if c != 0 {
					return c
				}
			}
			return 0
		})
		sorted := make([]outRow, len(out))
		for i, j := range idx {
			sorted[i] = out[j]
		}
		out = sorted
	}
	out = out[min(int(c.skip), len(out)):]
	if c.limit >= 0 && int64(len(out)) > c.limit {
		out = out[:c.limit]
	}
	var next []binding
	var vals [][]val
	for _, o := range out {
		b := binding{}
		for i, it := range c.items {
			b[it.alias] = o.vals[i]
		}
		if c.where != nil {
			v, err := ev.eval(c.where, b, nil)
			if err != nil {
				return nil, nil, nil, err
			}
			if !v.truthy() {
				continue
			}
		}
		next = append(next, b)
		vals = append(vals, o.vals)
	}
	cols := make([]string, len(c.items))
	for i, it := range c.items {
		cols[i] = it.alias
	}
	return next, cols, vals, nil
}

func allAgg(items []item) bool {
	for _, it := range items {
		if !it.e.hasAgg() {
			return false
		}
	}
	return true
}

// Store access of MATCH: the only functions that read the space's maps.

// hasTag reports whether vertex vid has tag.
func (sp *space) hasTag(tag string, vid int64) bool {
	_, ok := sp.verts[tag][vid]
	return ok
}

// vertexProp is v.tag.prop: NULL when the vertex lacks the tag.
func (sp *space) vertexProp(tag string, vid int64, prop string) val {
	vals, ok := sp.verts[tag][vid]
	if !ok {
		return nullVal
	}
	return fromGS(sp.prop(sp.tags, tag, prop, vals))
}

// vertexProps is properties(v): every tag's properties in one map (a
// property of several of the vertex's tags: the first tag's by name).
func (sp *space) vertexProps(vid int64) val {
	m := val{k: kMap, m: map[string]val{}}
	from := map[string]string{}
	for tag, sc := range sp.tags {
		vals, ok := sp.verts[tag][vid]
		if !ok {
			continue
		}
		for i, p := range sc.props {
			if t, seen := from[p]; !seen || tag < t {
				m.m[p], from[p] = fromGS(vals[i]), tag
			}
		}
	}
	return m
}

// vertexAnyProp is properties(v).prop without building the map.
func (sp *space) vertexAnyProp(vid int64, prop string) val {
	best, out := "", nullVal
	for tag, sc := range sp.tags {
		vals, ok := sp.verts[tag][vid]
		if !ok || (best != "" && tag > best) {
			continue
		}
		for i, p := range sc.props {
			if p == prop {
				best, out = tag, fromGS(vals[i])
			}
		}
	}
	return out
}

func (sp *space) edgeProp(e *edgeRef, prop string) val {
	vals, ok := sp.edata[e.name][[2]int64{e.src, e.dst}]
	if !ok {
		return nullVal
	}
	return fromGS(sp.prop(sp.edges, e.name, prop, vals))
}

func (sp *space) edgeProps(e *edgeRef) val {
	m := val{k: kMap, m: map[string]val{}}
	vals, ok := sp.edata[e.name][[2]int64{e.src, e.dst}]
	if sc := sp.edges[e.name]; ok && sc != nil {
		for i, p := range sc.props {
			m.m[p] = fromGS(vals[i])
		}
	}
	return m
}

// eachEdge calls fn with every edge of type t at v in direction dir (out,
// in, both) and the vertex at its other end.
func (sp *space) eachEdge(t string, v int64, dir string, fn func(e edgeRef, w int64)) {
	if dir != "in" {
		for _, w := range sp.out[t][v] {
			fn(edgeRef{t, v, w}, w)
		}
	}
	if dir != "out" {
		for _, w := range sp.in[t][v] {
			fn(edgeRef{t, w, v}, w)
		}
	}
}
