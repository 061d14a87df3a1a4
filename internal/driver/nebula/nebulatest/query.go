package nebulatest

import (
	"time"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

var nowFunc = time.Now

// yieldExpr is one YIELD column the stand-in evaluates.
type yieldExpr struct {
	kind       string // "dst", "src", "edgeprop", "dstprop", "vid", "tagprop"
	owner      string // tag or edge name
	prop, name string
}

// yields parses "YIELD [DISTINCT] e [AS n], ..." up to a pipe or the end.
func yields(p *parser) (exprs []yieldExpr, distinct bool, err error) {
	if !p.kw("YIELD") {
		return nil, false, p.errorf("expected YIELD")
	}
	distinct = p.kw("DISTINCT")
	for {
		var e yieldExpr
		switch {
		case p.kw("dst") || p.kw("src") || p.kw("id"):
			fn := lower(p.toks[p.i-1].text)
			if p.expectPunct("(") != nil {
				return nil, false, p.errorf("expected (")
			}
			arg, _ := p.ident()
			if p.expectPunct(")") != nil {
				return nil, false, p.errorf("expected )")
			}
			e.kind = map[string]string{"dst": "dst", "src": "src", "id": "vid"}[fn]
			e.name = fn + "(" + arg + ")"
		case p.punct("$$"):
			if p.expectPunct(".") != nil {
				return nil, false, p.errorf("expected .")
			}
			e.kind = "dstprop"
			e.owner, _ = p.ident()
			if p.expectPunct(".") != nil {
				return nil, false, p.errorf("expected .")
			}
			e.prop, _ = p.ident()
			e.name = "$$." + e.owner + "." + e.prop
		case p.kw("path"):
			e.kind, e.name = "path", "path"
		default:
			owner, err := p.ident()
			if err != nil || p.expectPunct(".") != nil {
				return nil, false, p.errorf("unsupported YIELD expression")
			}
			e.kind, e.owner = "prop", owner
			e.prop, _ = p.ident()
			e.name = owner + "." + e.prop
		}
		if p.kw("AS") {
			e.name, _ = p.ident()
		}
		exprs = append(exprs, e)
		if !p.punct(",") {
			return exprs, distinct, nil
		}
	}
}

func (sp *space) prop(m map[string]*schema, owner, prop string, vals []*graphsvc.Value) *graphsvc.Value {
	sc := m[owner]
	if sc == nil || vals == nil {
		return null()
	}
	for i, p := range sc.props {
		if p == prop {
			return vals[i]
		}
	}
	return null()
}

func names(exprs []yieldExpr) []string {
	out := make([]string, len(exprs))
	for i, e := range exprs {
		out[i] = e.name
	}
	return out
}

// over parses "OVER E|* [BIDIRECT|REVERSELY]" into edge types and a
// direction.
func (s *Store) over(sp *space, p *parser) (edges []string, dir string, err *stmtError) {
	if !p.kw("OVER") {
		return nil, "", errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: expected OVER")
	}
	if p.punct("*") {
		for _, e := range sortedKeys(sp.edges) {
			if s.visible(sp.edges, e) != nil {
				edges = append(edges, e)
			}
		}
	} else {
		for {
			e, perr := p.ident()
			if perr != nil {
				return nil, "", errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", perr)
			}
			if s.visible(sp.edges, e) == nil {
				return nil, "", errf(graphsvc.ErrorCode_E_SEMANTIC_ERROR, "SemanticError: %s not found in space [%s]", e, sp.name)
			}
			edges = append(edges, e)
			if !p.punct(",") {
				break
			}
		}
	}
	dir = "out"
	switch {
	case p.kw("BIDIRECT"):
		dir = "both"
	case p.kw("REVERSELY"):
		dir = "in"
	}
	return edges, dir, nil
}

// goSteps: GO n STEP[S] FROM v OVER E [BIDIRECT|REVERSELY] YIELD ...
// The frontier of each intermediate step is deduplicated; the last step
// yields one row per edge (then DISTINCT applies).
func (s *Store) goSteps(sp *space, p *parser) (*graphsvc.DataSet, *stmtError) {
	n := int64(1)
	if p.peek().kind == tInt {
		n, _ = p.int()
		if !p.kw("STEPS") && !p.kw("STEP") {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: expected STEPS")
		}
	}
	if !p.kw("FROM") {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: expected FROM")
	}
	start, err := p.int()
	if err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	edges, dir, serr := s.over(sp, p)
	if serr != nil {
		return nil, serr
	}
	exprs, distinct, perr := yields(p)
	if perr == nil {
		perr = p.done()
	}
	if perr != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", perr)
	}
	frontier := []int64{start}
	for step := int64(1); step < n; step++ {
		seen := map[int64]bool{}
		var next []int64
		for _, v := range frontier {
			for _, e := range edges {
				for _, w := range sp.neighbours(e, v, dir) {
					if !seen[w] {
						seen[w] = true
						next = append(next, w)
					}
				}
			}
		}
		frontier = next
	}
	var rows []*graphsvc.Row
	seen := map[string]bool{}
	for _, v := range frontier {
		for _, e := range edges {
			emit := func(src, dst int64, key [2]int64) {
				r := make([]*graphsvc.Value, len(exprs))
				for i, x := range exprs {
					switch x.kind {
					case "dst":
						r[i] = i64(dst)
					case "src":
						r[i] = i64(src)
					case "prop":
						r[i] = sp.prop(sp.edges, x.owner, x.prop, sp.edata[x.owner][key])
					case "dstprop":
						r[i] = sp.prop(sp.tags, x.owner, x.prop, sp.verts[x.owner][dst])
					default:
						r[i] = null()
					}
				}
				if distinct {
					k := rowKey(r)
					if seen[k] {
						return
					}
					seen[k] = true
				}
				rows = append(rows, row(r...))
			}
			if dir != "in" {
				for _, w := range sp.out[e][v] {
					emit(v, w, [2]int64{v, w})
				}
			}
			if dir != "out" {
				for _, w := range sp.in[e][v] {
					emit(v, w, [2]int64{w, v})
				}
			}
		}
	}
	return dataset(names(exprs), rows), nil
}

func rowKey(r []*graphsvc.Value) string {
	b := make([]byte, 0, 32)
	for _, v := range r {
		switch {
		case v.IVal != nil:
			b = append(b, 'i')
			for x := uint64(*v.IVal); ; x >>= 8 {
				b = append(b, byte(x))
				if x < 256 {
					break
				}
			}
		case v.SVal != nil:
			b = append(b, 's')
			b = append(b, v.SVal...)
		default:
			b = append(b, 'n')
		}
		b = append(b, 0)
	}
	return string(b)
}

// shortestPath: FIND SHORTEST PATH FROM a TO b OVER E|* [BIDIRECT]
// [UPTO n STEPS] YIELD path AS p. One shortest path (a real graphd
// returns every shortest path), no rows when there is none.
func (s *Store) shortestPath(sp *space, p *parser) (*graphsvc.DataSet, *stmtError) {
	if !p.kw("FROM") {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: expected FROM")
	}
	a, err := p.int()
	if err == nil && !p.kw("TO") {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: expected TO")
	}
	var b int64
	if err == nil {
		b, err = p.int()
	}
	if err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	edges, dir, serr := s.over(sp, p)
	if serr != nil {
		return nil, serr
	}
	upto := int64(5)
	if p.kw("UPTO") {
		if upto, err = p.int(); err != nil || !(p.kw("STEPS") || p.kw("STEP")) {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: bad UPTO")
		}
	}
	exprs, _, perr := yields(p)
	if perr == nil {
		perr = p.done()
	}
	if perr != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", perr)
	}
	cols := names(exprs)
	if !sp.hasVertex(a) || !sp.hasVertex(b) {
		return dataset(cols, nil), nil
	}
	type hop struct {
		prev int64
		edge string
	}
	parent := map[int64]hop{a: {prev: a}}
	frontier := []int64{a}
	found := a == b
	for depth := int64(0); depth < upto && !found && len(frontier) > 0; depth++ {
		var next []int64
		for _, v := range frontier {
			for _, e := range edges {
				for _, w := range sp.neighbours(e, v, dir) {
					if _, ok := parent[w]; ok {
						continue
					}
					parent[w] = hop{prev: v, edge: e}
					next = append(next, w)
					if w == b {
						found = true
					}
				}
			}
		}
		frontier = next
	}
	if !found {
		return dataset(cols, nil), nil
	}
	var steps []*graphsvc.Step
	for v := b; v != a; v = parent[v].prev {
		h := parent[v]
		steps = append([]*graphsvc.Step{{Dst: &graphsvc.Vertex{Vid: i64(v)}, Name: []byte(h.edge), Type: 1}}, steps...)
	}
	path := &graphsvc.Value{PVal: &graphsvc.Path{Src: &graphsvc.Vertex{Vid: i64(a)}, Steps: steps}}
	return dataset(cols, []*graphsvc.Row{row(path)}), nil
}

// fetch: FETCH PROP ON Tag v[, v...] YIELD Tag.p, ... or
// FETCH PROP ON E a -> b[, ...] YIELD E.p, ...
func (s *Store) fetch(sp *space, p *parser) (*graphsvc.DataSet, *stmtError) {
	owner, err := p.ident()
	if err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	var keys [][2]int64
	edge := false
	for {
		a, err := p.int()
		if err != nil {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
		}
		k := [2]int64{a, 0}
		if p.punct("->") {
			edge = true
			if k[1], err = p.int(); err != nil {
				return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
			}
		}
		keys = append(keys, k)
		if !p.punct(",") {
			break
		}
	}
	exprs, _, perr := yields(p)
	if perr == nil {
		perr = p.done()
	}
	if perr != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", perr)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := sp.tags
	if edge {
		m = sp.edges
	}
	if s.visible(m, owner) == nil {
		return nil, errf(graphsvc.ErrorCode_E_SEMANTIC_ERROR, "SemanticError: No schema found for `%s'", owner)
	}
	var rows []*graphsvc.Row
	for _, k := range keys {
		var vals []*graphsvc.Value
		var ok bool
		if edge {
			vals, ok = sp.edata[owner][k]
		} else {
			vals, ok = sp.verts[owner][k[0]]
		}
		if !ok {
			continue
		}
		r := make([]*graphsvc.Value, len(exprs))
		for i, x := range exprs {
			switch x.kind {
			case "vid":
				r[i] = i64(k[0])
			case "src":
				r[i] = i64(k[0])
			case "dst":
				r[i] = i64(k[1])
			default:
				r[i] = sp.prop(m, owner, x.prop, vals)
			}
		}
		rows = append(rows, row(r...))
	}
	return dataset(names(exprs), rows), nil
}

// lookup: LOOKUP ON Tag WHERE Tag.p == literal YIELD id(vertex) [AS n].
// Needs a tag index on Tag, as a real graphd does.
func (s *Store) lookup(sp *space, p *parser) (*graphsvc.DataSet, *stmtError) {
	tag, err := p.ident()
	if err != nil || !p.kw("WHERE") {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: expected LOOKUP ON Tag WHERE ...")
	}
	if owner, err := p.ident(); err != nil || owner != tag || p.expectPunct(".") != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: expected %s.prop", tag)
	}
	prop, _ := p.ident()
	if p.expectPunct("==") != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: expected ==")
	}
	want, verr := value(p)
	if verr != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", verr)
	}
	exprs, _, perr := yields(p)
	if perr == nil {
		perr = p.done()
	}
	if perr != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", perr)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	indexed := false
	for _, t := range sp.indexes {
		indexed = indexed || t == tag
	}
	if !indexed {
		return nil, errf(graphsvc.ErrorCode_E_INDEX_NOT_FOUND, "IndexNotFound: No valid index found")
	}
	wk := rowKey([]*graphsvc.Value{want})
	var rows []*graphsvc.Row
	for vid, vals := range sp.verts[tag] {
		if rowKey([]*graphsvc.Value{sp.prop(sp.tags, tag, prop, vals)}) != wk {
			continue
		}
		r := make([]*graphsvc.Value, len(exprs))
		for i, x := range exprs {
			if x.kind == "vid" {
				r[i] = i64(vid)
			} else {
				r[i] = sp.prop(sp.tags, x.owner, x.prop, vals)
			}
		}
		rows = append(rows, row(r...))
	}
	return dataset(names(exprs), rows), nil
}
