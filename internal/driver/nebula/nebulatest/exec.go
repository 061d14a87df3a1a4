package nebulatest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// stmtError is a statement the stand-in rejects with an ErrorCode.
type stmtError struct {
	code graphsvc.ErrorCode
	msg  string
}

func (e *stmtError) Error() string { return e.msg }

func errf(code graphsvc.ErrorCode, format string, a ...any) *stmtError {
	return &stmtError{code: code, msg: fmt.Sprintf(format, a...)}
}

// Version is what the stand-in answers as its version (SHOW HOSTS GRAPH):
// it says plainly that it is no NebulaGraph server.
const Version = nebula.StandInVersion

// exec runs one statement for a session whose current space is *spaceName.
func (s *Store) exec(spaceName *string, stmt string) (*graphsvc.DataSet, *stmtError) {
	toks, err := lex(stmt)
	if err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: %v", err)
	}
	p := &parser{toks: toks}
	if p.peek().kind == tEOF {
		return nil, errf(graphsvc.ErrorCode_E_STATEMENT_EMPTY, "StatementEmpty")
	}
	// Schema and admin statements.
	switch {
	case p.kw("SHOW", "HOSTS"):
		p.kw("GRAPH")
		return dataset([]string{"Host", "Port", "Status", "Git Info Sha", "Version"},
			[]*graphsvc.Row{row(str("127.0.0.1"), i64(0), str("ONLINE"), str("-"), str(Version))}), nil
	case p.kw("SHOW", "SPACES"):
		s.mu.RLock()
		defer s.mu.RUnlock()
		var rows []*graphsvc.Row
		for _, n := range sortedKeys(s.spaces) {
			rows = append(rows, row(str(n)))
		}
		return dataset([]string{"Name"}, rows), nil
	case p.kw("CREATE", "SPACE"):
		return s.createSpace(p)
	case p.kw("DROP", "SPACE"):
		ifExists := p.kw("IF", "EXISTS")
		name, err := p.ident()
		if err != nil {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.spaces[name] == nil && !ifExists {
			return nil, errf(graphsvc.ErrorCode_E_SPACE_NOT_FOUND, "SpaceNotFound: %s", name)
		}
		delete(s.spaces, name)
		return nil, nil
	case p.kw("DESCRIBE", "SPACE") || p.kw("DESC", "SPACE"):
		name, err := p.ident()
		if err != nil {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
		}
		s.mu.RLock()
		defer s.mu.RUnlock()
		sp := s.spaces[name]
		if sp == nil {
			return nil, errf(graphsvc.ErrorCode_E_SPACE_NOT_FOUND, "SpaceNotFound: %s", name)
		}
		return dataset([]string{"ID", "Name", "Partition Number", "Replica Factor", "Charset", "Collate", "Vid Type"},
			[]*graphsvc.Row{row(i64(1), str(sp.name), i64(sp.parts), i64(sp.replicas), str("utf8"), str("utf8_bin"), str(sp.vidType))}), nil
	case p.kw("USE"):
		name, err := p.ident()
		if err != nil {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
		}
		s.mu.RLock()
		ok := s.spaces[name] != nil
		s.mu.RUnlock()
		if !ok {
			return nil, errf(graphsvc.ErrorCode_E_SPACE_NOT_FOUND, "SpaceNotFound: SpaceName `%s`", name)
		}
		*spaceName = name
		return nil, nil
	}
	s.mu.RLock()
	sp := s.spaces[*spaceName]
	s.mu.RUnlock()
	if sp == nil {
		return nil, errf(graphsvc.ErrorCode_E_SEMANTIC_ERROR, "SemanticError: Space was not chosen.")
	}
	switch {
	case p.kw("CREATE", "TAG", "INDEX"):
		return s.createIndex(sp, p)
	case p.kw("CREATE", "TAG"):
		return s.createSchema(sp, p, false)
	case p.kw("CREATE", "EDGE"):
		return s.createSchema(sp, p, true)
	case p.kw("REBUILD", "TAG", "INDEX"):
		return s.submitJob()
	case p.kw("SHOW", "TAGS"):
		return s.showSchema(sp, false), nil
	case p.kw("SHOW", "EDGES"):
		return s.showSchema(sp, true), nil
	case p.kw("SUBMIT", "JOB", "STATS"):
		return s.submitJob()
	case p.kw("SHOW", "JOB"):
		id, err := p.int()
		if err != nil {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
		}
		return dataset([]string{"Job Id(TaskId)", "Command(Dest)", "Status", "Start Time", "Stop Time", "Error Code"},
			[]*graphsvc.Row{row(i64(id), str("STATS"), str("FINISHED"), null(), null(), str("SUCCEEDED"))}), nil
	case p.kw("SHOW", "STATS"):
		return s.showStats(sp), nil
	case p.kw("INSERT", "VERTEX"):
		return s.insert(sp, p, false)
	case p.kw("INSERT", "EDGE"):
		return s.insert(sp, p, true)
	case p.kw("GO"):
		return s.goSteps(sp, p)
	case p.kw("FIND", "SHORTEST", "PATH"):
		return s.shortestPath(sp, p)
	case p.kw("FETCH", "PROP", "ON"):
		return s.fetch(sp, p)
	case p.kw("LOOKUP", "ON"):
		return s.lookup(sp, p)
	case p.peek().kind == tIdent && (lower(p.peek().text) == "match" || lower(p.peek().text) == "optional"):
		return s.match(sp, p)
	}
	return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: the stand-in does not know this statement near `%s'", firstWords(stmt))
}

func firstWords(s string) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(3, len(f))], " ")
}

func (s *Store) createSpace(p *parser) (*graphsvc.DataSet, *stmtError) {
	ifNot := p.kw("IF", "NOT", "EXISTS")
	name, err := p.ident()
	if err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	parts, replicas, vid := int64(100), int64(1), "FIXED_STRING(8)"
	if p.punct("(") {
		for !p.punct(")") {
			key, err := p.ident()
			if err != nil || p.expectPunct("=") != nil {
				return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: bad space option")
			}
			switch lower(key) {
			case "partition_num":
				parts, err = p.int()
			case "replica_factor":
				replicas, err = p.int()
			case "vid_type":
				vid, err = p.ident()
				vid = strings.ToUpper(vid)
			default:
				p.next()
			}
			if err != nil {
				return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
			}
			p.punct(",")
		}
	}
	if err := p.done(); err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spaces[name] != nil {
		if ifNot {
			return nil, nil
		}
		return nil, errf(graphsvc.ErrorCode_E_EXISTED, "Existed!")
	}
	s.spaces[name] = newSpace(name, parts, replicas, vid)
	return nil, nil
}

func (s *Store) createSchema(sp *space, p *parser, edge bool) (*graphsvc.DataSet, *stmtError) {
	ifNot := p.kw("IF", "NOT", "EXISTS")
	name, err := p.ident()
	if err == nil {
		err = p.notReserved()
	}
	if err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	var props, types []string
	if err := p.expectPunct("("); err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	for !p.punct(")") {
		prop, err := p.ident()
		if err == nil {
			err = p.notReserved()
		}
		if err != nil {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
		}
		props = append(props, prop)
		types = append(types, lower(p.peek().text))
		// Skip the type and any arguments: "string", "fixed_string(20)".
		depth := 0
		for {
			t := p.peek()
			if t.kind == tEOF || depth == 0 && t.kind == tPunct && (t.text == "," || t.text == ")") {
				break
			}
			if t.kind == tPunct && t.text == "(" {
				depth++
			}
			if t.kind == tPunct && t.text == ")" {
				depth--
			}
			p.next()
		}
		p.punct(",")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := sp.tags
	if edge {
		m = sp.edges
	}
	if m[name] != nil {
		if ifNot {
			return nil, nil
		}
		return nil, errf(graphsvc.ErrorCode_E_EXISTED, "Existed!")
	}
	m[name] = &schema{props: props, types: types, at: nowFunc()}
	return nil, nil
}

func (s *Store) createIndex(sp *space, p *parser) (*graphsvc.DataSet, *stmtError) {
	p.kw("IF", "NOT", "EXISTS")
	name, err := p.ident()
	if err != nil || !p.kw("ON") {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: bad index")
	}
	tag, err := p.ident()
	if err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sp.tags[tag] == nil {
		return nil, errf(graphsvc.ErrorCode_E_TAG_NOT_FOUND, "TagNotFound: %s", tag)
	}
	sp.indexes[name] = tag
	return nil, nil
}

func (s *Store) submitJob() (*graphsvc.DataSet, *stmtError) {
	s.mu.Lock()
	s.jobs++
	id := s.jobs
	s.mu.Unlock()
	return dataset([]string{"New Job Id"}, []*graphsvc.Row{row(i64(id))}), nil
}

func (s *Store) showSchema(sp *space, edge bool) *graphsvc.DataSet {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := sp.tags
	if edge {
		m = sp.edges
	}
	var rows []*graphsvc.Row
	for _, n := range sortedKeys(m) {
		if s.visible(m, n) != nil {
			rows = append(rows, row(str(n)))
		}
	}
	return dataset([]string{"Name"}, rows)
}

func (s *Store) showStats(sp *space) *graphsvc.DataSet {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var rows []*graphsvc.Row
	var vs, es int64
	for _, t := range sortedKeys(sp.tags) {
		n := sp.count(t, false)
		rows = append(rows, row(str("Tag"), str(t), i64(n)))
	}
	for _, e := range sortedKeys(sp.edges) {
		n := sp.count(e, true)
		es += n
		rows = append(rows, row(str("Edge"), str(e), i64(n)))
	}
	seen := map[int64]bool{}
	for _, m := range sp.verts {
		for v := range m {
			seen[v] = true
		}
	}
	vs = int64(len(seen))
	rows = append(rows, row(str("Space"), str("vertices"), i64(vs)), row(str("Space"), str("edges"), i64(es)))
	return dataset([]string{"Type", "Name", "Count"}, rows)
}

// value parses one literal of a VALUES list: a number, a string, NULL,
// a boolean, datetime("...") or date("...") (stored typed, as graphd
// answers them), or time("...")/timestamp("...") (kept as text).
func value(p *parser) (*graphsvc.Value, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		v, err := strconv.ParseInt(t.text, 10, 64)
		return i64(v), err
	case tFloat:
		f, err := strconv.ParseFloat(t.text, 64)
		return &graphsvc.Value{FVal: &f}, err
	case tString:
		return str(t.str), nil
	case tIdent:
		switch lower(t.text) {
		case "null":
			return null(), nil
		case "true", "false":
			b := lower(t.text) == "true"
			return &graphsvc.Value{BVal: &b}, nil
		case "datetime", "date", "time", "timestamp":
			if err := p.expectPunct("("); err != nil {
				return nil, err
			}
			arg := p.next()
			if arg.kind != tString || p.expectPunct(")") != nil {
				return nil, p.errorf("bad %s()", t.text)
			}
			if fn := lower(t.text); fn == "datetime" || fn == "date" {
				v, err := parseInstant(fn, arg.str)
				if err != nil {
					return nil, p.errorf("%v", err)
				}
				return instantGS(v), nil
			}
			return str(arg.str), nil
		}
	}
	return nil, p.errorf("expected a value")
}

func (s *Store) insert(sp *space, p *parser, edge bool) (*graphsvc.DataSet, *stmtError) {
	p.kw("IF", "NOT", "EXISTS")
	name, err := p.ident()
	if err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	var cols []string
	if err := p.expectPunct("("); err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	for !p.punct(")") {
		c, err := p.ident()
		if err == nil {
			err = p.notReserved()
		}
		if err != nil {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
		}
		cols = append(cols, c)
		p.punct(",")
	}
	if !p.kw("VALUES") {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: expected VALUES")
	}
	type item struct {
		a, b  int64
		props []*graphsvc.Value
		lits  []string // literalKind of each value
	}
	var items []item
	for {
		var it item
		if it.a, err = p.int(); err != nil {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
		}
		if edge {
			if err := p.expectPunct("->"); err != nil {
				return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
			}
			if it.b, err = p.int(); err != nil {
				return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
			}
			if p.punct("@") {
				p.next()
			}
		}
		if p.expectPunct(":") != nil || p.expectPunct("(") != nil {
			return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "SyntaxError: expected :(")
		}
		for !p.punct(")") {
			it.lits = append(it.lits, literalKind(p.peek()))
			v, err := value(p)
			if err != nil {
				return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
			}
			it.props = append(it.props, v)
			p.punct(",")
		}
		if len(it.props) != len(cols) {
			return nil, errf(graphsvc.ErrorCode_E_SEMANTIC_ERROR, "SemanticError: Column count doesn't match value count.")
		}
		items = append(items, it)
		if !p.punct(",") {
			break
		}
	}
	if err := p.done(); err != nil {
		return nil, errf(graphsvc.ErrorCode_E_SYNTAX_ERROR, "%v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := sp.tags
	if edge {
		m = sp.edges
	}
	sc := s.visible(m, name)
	if sc == nil {
		return nil, errf(graphsvc.ErrorCode_E_SEMANTIC_ERROR, "SemanticError: No schema found for `%s'", name)
	}
	idx := make([]int, len(cols))
	for i, c := range cols {
		idx[i] = -1
		for j, pr := range sc.props {
			if pr == c {
				idx[i] = j
			}
		}
		if idx[i] < 0 {
			return nil, errf(graphsvc.ErrorCode_E_SEMANTIC_ERROR, "SemanticError: `%s' not found", c)
		}
	}
	for _, it := range items {
		for i, lit := range it.lits {
			if serr := checkType(sc, idx[i], lit); serr != nil {
				return nil, serr
			}
		}
	}
	for _, it := range items {
		props := make([]*graphsvc.Value, len(sc.props))
		for i := range props {
			props[i] = null()
		}
		for i, v := range it.props {
			props[idx[i]] = v
		}
		if edge {
			sp.putEdge(name, it.a, it.b, props)
		} else {
			sp.putVertex(name, it.a, props)
		}
	}
	return nil, nil
}
