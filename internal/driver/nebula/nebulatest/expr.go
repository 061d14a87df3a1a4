package nebulatest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// expr is one parsed expression of a MATCH statement.
type expr struct {
	op       string // lit var prop index call list map bin not neg isnull notnull case
	v        val    // lit
	name     string // var, prop, call (lower case), bin operator
	args     []*expr
	distinct bool // call: f(DISTINCT x)
	star     bool // call: count(*)
	keys     []string
	text     string
}

// aggregates are the aggregating functions.
var aggregates = map[string]bool{"count": true, "collect": true, "min": true, "max": true, "sum": true, "avg": true}

func (e *expr) hasAgg() bool {
	if e == nil {
		return false
	}
	if e.op == "call" && aggregates[e.name] {
		return true
	}
	for _, a := range e.args {
		if a.hasAgg() {
			return true
		}
	}
	return false
}

// parseExpr parses an expression; precedence from OR down to postfix.
func (p *parser) parseExpr() (*expr, error) {
	start := p.i
	e, err := p.parseOr()
	if err == nil {
		e.text = p.textFrom(start)
	}
	return e, err
}

// textFrom is the statement text of tokens from start to the current
// one, as a column name.
func (p *parser) textFrom(start int) string {
	var b strings.Builder
	for _, t := range p.toks[start:p.i] {
		switch t.kind {
		case tString:
			b.WriteString(strconv.Quote(t.str))
		case tIdent:
			if b.Len() > 0 && strings.IndexByte("(.[", b.String()[b.Len()-1]) < 0 {
				b.WriteByte(' ')
			}
			b.WriteString(t.text)
		default:
			b.WriteString(t.text)
		}
	}
	return b.String()
}

func (p *parser) parseBinary(next func() (*expr, error), ops ...string) (*expr, error) {
	l, err := next()
	if err != nil {
		return nil, err
	}
	for {
		op := ""
		for _, o := range ops {
			if o[0] >= 'A' && o[0] <= 'Z' {
				if p.kw(o) {
					op = o
				}
			} else if p.punct(o) {
				op = o
			}
			if op != "" {
				break
			}
		}
		if op == "" {
			return l, nil
		}
		r, err := next()
		if err != nil {
			return nil, err
		}
		l = &expr{op: "bin", name: op, args: []*expr{l, r}}
	}
}

func (p *parser) parseOr() (*expr, error)  { return p.parseBinary(p.parseXor, "OR") }
func (p *parser) parseXor() (*expr, error) { return p.parseBinary(p.parseAnd, "XOR") }
func (p *parser) parseAnd() (*expr, error) { return p.parseBinary(p.parseNot, "AND") }

func (p *parser) parseNot() (*expr, error) {
	if p.kw("NOT") || p.punct("!") {
		e, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return &expr{op: "not", args: []*expr{e}}, nil
	}
	return p.parseComparison()
}

func (p *parser) parseComparison() (*expr, error) {
	l, err := p.parseAdd()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.kw("IS", "NOT", "NULL"):
			l = &expr{op: "notnull", args: []*expr{l}}
			continue
		case p.kw("IS", "NULL"):
			l = &expr{op: "isnull", args: []*expr{l}}
			continue
		}
		op := ""
		for _, o := range []string{"==", "!=", "<>", "<=", ">=", "<", ">", "="} {
			if p.punct(o) {
				op = o
				break
			}
		}
		if op == "" && p.kw("IN") {
			op = "IN"
		}
		if op == "" {
			return l, nil
		}
		r, err := p.parseAdd()
		if err != nil {
			return nil, err
		}
		l = &expr{op: "bin", name: op, args: []*expr{l, r}}
	}
}

func (p *parser) parseAdd() (*expr, error) { return p.parseBinary(p.parseMul, "+", "-") }
func (p *parser) parseMul() (*expr, error) { return p.parseBinary(p.parseUnary, "*", "/", "%") }

func (p *parser) parseUnary() (*expr, error) {
	if p.punct("-") {
		e, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		return &expr{op: "neg", args: []*expr{e}}, nil
	}
	return p.parsePostfix()
}

func (p *parser) parsePostfix() (*expr, error) {
	e, err := p.parsePrimary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.punct("."):
			name, err := p.ident()
			if err != nil {
				return nil, err
			}
			e = &expr{op: "prop", name: name, args: []*expr{e}}
		case p.punct("["):
			i, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			if err := p.expectPunct("]"); err != nil {
				return nil, err
			}
			e = &expr{op: "index", args: []*expr{e, i}}
		default:
			return e, nil
		}
	}
}

func (p *parser) parseList(end string) ([]*expr, error) {
	var out []*expr
	if p.punct(end) {
		return out, nil
	}
	for {
		e, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if p.punct(end) {
			return out, nil
		}
		if err := p.expectPunct(","); err != nil {
			return nil, err
		}
	}
}

func (p *parser) parsePrimary() (*expr, error) {
	t := p.peek()
	switch t.kind {
	case tInt:
		p.next()
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return nil, p.errorf("bad integer")
		}
		return &expr{op: "lit", v: intVal(v)}, nil
	case tFloat:
		p.next()
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, p.errorf("bad number")
		}
		return &expr{op: "lit", v: val{k: kFloat, f: f}}, nil
	case tString:
		p.next()
		return &expr{op: "lit", v: strVal(t.str)}, nil
	case tPunct:
		switch {
		case p.punct("("):
			e, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			return e, p.expectPunct(")")
		case p.punct("["):
			args, err := p.parseList("]")
			return &expr{op: "list", args: args}, err
		case p.punct("{"):
			e := &expr{op: "map"}
			for !p.punct("}") {
				k, err := p.ident()
				if err != nil {
					return nil, err
				}
				if err := p.expectPunct(":"); err != nil {
					return nil, err
				}
				v, err := p.parseExpr()
				if err != nil {
					return nil, err
				}
				e.keys, e.args = append(e.keys, k), append(e.args, v)
				p.punct(",")
			}
			return e, nil
		}
		return nil, p.errorf("unexpected %q", t.text)
	case tIdent:
		switch lower(t.text) {
		case "true", "false":
			p.next()
			return &expr{op: "lit", v: boolVal(lower(t.text) == "true")}, nil
		case "null":
			p.next()
			return &expr{op: "lit", v: nullVal}, nil
		case "case":
			p.next()
			return p.parseCase()
		}
		p.next()
		if !p.punct("(") {
			return &expr{op: "var", name: t.text}, nil
		}
		e := &expr{op: "call", name: lower(t.text)}
		if p.punct("*") {
			e.star = true
			return e, p.expectPunct(")")
		}
		e.distinct = p.kw("DISTINCT")
		var err error
		e.args, err = p.parseList(")")
		return e, err
	}
	return nil, p.errorf("expected an expression")
}

// parseCase: CASE [x] WHEN a THEN b ... [ELSE c] END; args are x (or
// nil), then when/then pairs, then the else (or nil).
func (p *parser) parseCase() (*expr, error) {
	e := &expr{op: "case", args: []*expr{nil}}
	if !p.kw("WHEN") {
		x, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		e.args[0] = x
		if !p.kw("WHEN") {
			return nil, p.errorf("expected WHEN")
		}
	}
	for {
		w, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		if !p.kw("THEN") {
			return nil, p.errorf("expected THEN")
		}
		th, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		e.args = append(e.args, w, th)
		if !p.kw("WHEN") {
			break
		}
	}
	var els *expr
	if p.kw("ELSE") {
		var err error
		if els, err = p.parseExpr(); err != nil {
			return nil, err
		}
	}
	if !p.kw("END") {
		return nil, p.errorf("expected END")
	}
	e.args = append(e.args, els)
	return e, nil
}

// binding is one row of variables.
type binding map[string]val

// evaluator evaluates expressions over the store (read-locked).
type evaluator struct {
	sp *space
}

// eval evaluates e for row; group, when set, is the rows aggregates of
// the current group run over.
func (ev *evaluator) eval(e *expr, row binding, group []binding) (val, error) {
	arg := func(i int) (val, error) { return ev.eval(e.args[i], row, group) }
	switch e.op {
	case "lit":
		return e.v, nil
	case "var":
		v, ok := row[e.name]
		if !ok {
			return nullVal, fmt.Errorf("SemanticError: `%s' is not defined", e.name)
		}
		return v, nil
	case "prop":
		if a := e.args[0]; a.op == "call" && a.name == "properties" && len(a.args) == 1 {
			// properties(v).p: one lookup instead of the whole map.
			x, err := ev.eval(a.args[0], row, group)
			if err == nil && x.k == kVertex {
				return ev.sp.vertexAnyProp(x.i, e.name), nil
			}
		}
		x, err := arg(0)
		if err != nil {
			return nullVal, err
		}
		return ev.prop(x, e.name), nil
	case "index":
		x, err := arg(0)
		if err != nil {
			return nullVal, err
		}
		i, err := arg(1)
		if err != nil || x.k != kList || i.k != kInt {
			return nullVal, err
		}
		n := i.i
		if n < 0 {
			n += int64(len(x.list))
		}
		if n < 0 || n >= int64(len(x.list)) {
			return nullVal, nil
		}
		return x.list[n], nil
	case "list":
		out := val{k: kList, list: []val{}}
		for i := range e.args {
			v, err := arg(i)
			if err != nil {
				return nullVal, err
			}
			out.list = append(out.list, v)
		}
		return out, nil
	case "map":
		out := val{k: kMap, m: map[string]val{}}
		for i, k := range e.keys {
			v, err := arg(i)
			if err != nil {
				return nullVal, err
			}
			out.m[k] = v
		}
		return out, nil
	case "not":
		x, err := arg(0)
		if err != nil || x.k != kBool {
			return nullVal, err
		}
		return boolVal(x.i == 0), nil
	case "neg":
		x, err := arg(0)
		switch {
		case err != nil:
			return nullVal, err
		case x.k == kInt:
			return intVal(-x.i), nil
		case x.k == kFloat:
			return val{k: kFloat, f: -x.f}, nil
		}
		return nullVal, nil
	case "isnull", "notnull":
		x, err := arg(0)
		if err != nil {
			return nullVal, err
		}
		return boolVal((x.k == kNull) == (e.op == "isnull")), nil
	case "case":
		return ev.evalCase(e, row, group)
	case "bin":
		return ev.evalBin(e, row, group)
	case "call":
		if aggregates[e.name] {
			return ev.aggregate(e, group)
		}
		args := make([]val, len(e.args))
		for i := range e.args {
			v, err := arg(i)
			if err != nil {
				return nullVal, err
			}
			args[i] = v
		}
		return ev.call(e.name, args)
	}
	return nullVal, fmt.Errorf("SemanticError: unsupported expression %s", e.text)
}

func (ev *evaluator) evalCase(e *expr, row binding, group []binding) (val, error) {
	var subject val
	if e.args[0] != nil {
		var err error
		if subject, err = ev.eval(e.args[0], row, group); err != nil {
			return nullVal, err
		}
	}
	n := len(e.args)
	for i := 1; i+1 < n; i += 2 {
		w, err := ev.eval(e.args[i], row, group)
		if err != nil {
			return nullVal, err
		}
		hit := w.truthy()
		if e.args[0] != nil {
			hit = equalVals(subject, w).truthy()
		}
		if hit {
			return ev.eval(e.args[i+1], row, group)
		}
	}
	if e.args[n-1] == nil {
		return nullVal, nil
	}
	return ev.eval(e.args[n-1], row, group)
}

func (ev *evaluator) evalBin(e *expr, row binding, group []binding) (val, error) {
	l, err := ev.eval(e.args[0], row, group)
	if err != nil {
		return nullVal, err
	}
	switch e.name {
	case "AND", "OR", "XOR":
		r, err := ev.eval(e.args[1], row, group)
		if err != nil {
			return nullVal, err
		}
		return logic(e.name, l, r), nil
	}
	r, err := ev.eval(e.args[1], row, group)
	if err != nil {
		return nullVal, err
	}
	switch e.name {
	case "==", "=":
		return equalVals(l, r), nil
	case "!=", "<>":
		eq := equalVals(l, r)
		if eq.k == kNull {
			return eq, nil
		}
		return boolVal(eq.i == 0), nil
	case "<", "<=", ">", ">=":
		if l.k == kNull || r.k == kNull {
			return nullVal, nil
		}
		c, ok := compareVals(l, r)
		if !ok {
			return nullVal, nil
		}
		return boolVal(map[string]bool{"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[e.name]), nil
	case "IN":
		if l.k == kNull || r.k != kList {
			return nullVal, nil
		}
		for _, x := range r.list {
			if equalVals(l, x).truthy() {
				return boolVal(true), nil
			}
		}
		return boolVal(false), nil
	}
	return arith(e.name, l, r)
}

// logic is three-valued AND/OR/XOR.
func logic(op string, l, r val) val {
	lb, rb := l.k == kBool, r.k == kBool
	switch op {
	case "AND":
		if (lb && l.i == 0) || (rb && r.i == 0) {
			return boolVal(false)
		}
		if lb && rb {
			return boolVal(true)
		}
	case "OR":
		if (lb && l.i != 0) || (rb && r.i != 0) {
			return boolVal(true)
		}
		if lb && rb {
			return boolVal(false)
		}
	case "XOR":
		if lb && rb {
			return boolVal((l.i != 0) != (r.i != 0))
		}
	}
	return nullVal
}

// arith is + - * / % on numbers, and + on strings (with any non-null
// value written as toString does).
func arith(op string, l, r val) (val, error) {
	if l.k == kNull || r.k == kNull {
		return nullVal, nil
	}
	if op == "+" && (l.k == kStr || r.k == kStr) {
		return strVal(toString(l) + toString(r)), nil
	}
	if l.k == kInt && r.k == kInt {
		a, b := l.i, r.i
		switch op {
		case "+":
			return intVal(a + b), nil
		case "-":
			return intVal(a - b), nil
		case "*":
			return intVal(a * b), nil
		case "/", "%":
			if b == 0 {
				return nullVal, fmt.Errorf("SemanticError: Division by zero")
			}
			if op == "/" {
				return intVal(a / b), nil
			}
			return intVal(a % b), nil
		}
	}
	num := func(v val) (float64, bool) {
		switch v.k {
		case kInt:
			return float64(v.i), true
		case kFloat:
			return v.f, true
		}
		return 0, false
	}
	a, ok1 := num(l)
	b, ok2 := num(r)
	if !ok1 || !ok2 {
		return nullVal, fmt.Errorf("SemanticError: `%s' of incompatible values", op)
	}
	var f float64
	switch op {
	case "+":
		f = a + b
	case "-":
		f = a - b
	case "*":
		f = a * b
	case "/":
		f = a / b
	case "%":
		f = math.Mod(a, b)
	}
	return val{k: kFloat, f: f}, nil
}

// toString is nGQL's toString().
func toString(v val) string {
	switch v.k {
	case kInt:
		return strconv.FormatInt(v.i, 10)
	case kFloat:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case kStr:
		return v.s
	case kBool:
		return strconv.FormatBool(v.i != 0)
	case kDate:
		return time.UnixMicro(v.i).UTC().Format("2006-01-02")
	case kDateTime:
		return time.UnixMicro(v.i).UTC().Format("2006-01-02T15:04:05.000000")
	}
	return ""
}

// prop is x.name: a vertex's tag (then .prop), a tag's property, an
// edge's property, a map's key.
func (ev *evaluator) prop(x val, name string) val {
	switch x.k {
	case kVertex:
		return val{k: kTagRef, i: x.i, s: name}
	case kTagRef:
		return ev.sp.vertexProp(x.s, x.i, name)
	case kEdge:
		return ev.sp.edgeProp(x.e, name)
	case kMap:
		return x.m[name]
	}
	return nullVal
}

// call runs a scalar function.
func (ev *evaluator) call(name string, args []val) (val, error) {
	want := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("SemanticError: %s() takes %d arguments", name, n)
		}
		return nil
	}
	switch name {
	case "id":
		if err := want(1); err != nil {
			return nullVal, err
		}
		if args[0].k == kVertex {
			return intVal(args[0].i), nil
		}
		return nullVal, nil
	case "properties":
		if err := want(1); err != nil {
			return nullVal, err
		}
		switch args[0].k {
		case kVertex:
			return ev.sp.vertexProps(args[0].i), nil
		case kEdge:
			return ev.sp.edgeProps(args[0].e), nil
		}
		return nullVal, nil
	case "coalesce":
		for _, a := range args {
			if a.k != kNull {
				return a, nil
			}
		}
		return nullVal, nil
	case "size", "length":
		if err := want(1); err != nil {
			return nullVal, err
		}
		switch args[0].k {
		case kList:
			return intVal(int64(len(args[0].list))), nil
		case kStr:
			return intVal(int64(utf8.RuneCountInString(args[0].s))), nil
		}
		return nullVal, nil
	case "head", "last":
		if err := want(1); err != nil {
			return nullVal, err
		}
		if args[0].k != kList || len(args[0].list) == 0 {
			return nullVal, nil
		}
		if name == "head" {
			return args[0].list[0], nil
		}
		return args[0].list[len(args[0].list)-1], nil
	case "tostring":
		if err := want(1); err != nil {
			return nullVal, err
		}
		if args[0].k == kNull {
			return nullVal, nil
		}
		return strVal(toString(args[0])), nil
	case "timestamp":
		if err := want(1); err != nil {
			return nullVal, err
		}
		switch a := args[0]; a.k {
		case kDateTime, kDate:
			return intVal(floorDiv(a.i, 1e6)), nil
		case kStr:
			v, err := parseInstant("datetime", a.s)
			if err != nil {
				return nullVal, fmt.Errorf("SemanticError: %v", err)
			}
			return intVal(floorDiv(v.i, 1e6)), nil
		case kInt:
			return a, nil
		}
		return nullVal, nil
	case "datetime", "date":
		if err := want(1); err != nil {
			return nullVal, err
		}
		switch a := args[0]; a.k {
		case kStr:
			v, err := parseInstant(name, a.s)
			if err != nil {
				return nullVal, fmt.Errorf("SemanticError: %v", err)
			}
			return v, nil
		case kDate, kDateTime:
			if name == "date" {
				t := time.UnixMicro(a.i).UTC()
				return val{k: kDate, i: time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).UnixMicro()}, nil
			}
			return val{k: kDateTime, i: a.i}, nil
		}
		return nullVal, nil
	case "tointeger":
		if err := want(1); err != nil {
			return nullVal, err
		}
		switch a := args[0]; a.k {
		case kInt:
			return a, nil
		case kFloat:
			return intVal(int64(a.f)), nil
		case kStr:
			if n, err := strconv.ParseInt(a.s, 10, 64); err == nil {
				return intVal(n), nil
			}
		}
		return nullVal, nil
	}
	return nullVal, fmt.Errorf("SemanticError: the stand-in has no function %s()", name)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// aggregate runs an aggregating function over group.
func (ev *evaluator) aggregate(e *expr, group []binding) (val, error) {
	if group == nil {
		return nullVal, fmt.Errorf("SemanticError: %s() is not allowed here", e.name)
	}
	var vals []val
	seen := map[string]bool{}
	for _, r := range group {
		if e.star {
			vals = append(vals, intVal(1))
			continue
		}
		if len(e.args) != 1 {
			return nullVal, fmt.Errorf("SemanticError: %s() takes 1 argument", e.name)
		}
		v, err := ev.eval(e.args[0], r, nil)
		if err != nil {
			return nullVal, err
		}
		if v.k == kNull {
			continue
		}
		if e.distinct {
			k := v.key()
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		vals = append(vals, v)
	}
	switch e.name {
	case "count":
		return intVal(int64(len(vals))), nil
	case "collect":
		return val{k: kList, list: append([]val{}, vals...)}, nil
	case "min", "max":
		if len(vals) == 0 {
			return nullVal, nil
		}
		best := vals[0]
		for _, v := range vals[1:] {
			c := sortCompare(v, best)
			if (e.name == "min" && c < 0) || (e.name == "max" && c > 0) {
				best = v
			}
		}
		return best, nil
	case "sum", "avg":
		sum := intVal(0)
		for _, v := range vals {
			var err error
			if sum, err = arith("+", sum, v); err != nil {
				return nullVal, err
			}
		}
		if e.name == "sum" {
			return sum, nil
		}
		if len(vals) == 0 {
			return nullVal, nil
		}
		return arith("/", val{k: kFloat, f: float64(sum.i) + sum.f}, intVal(int64(len(vals))))
	}
	return nullVal, fmt.Errorf("SemanticError: unknown aggregate %s()", e.name)
}
