// Package threshold parses and evaluates pass/fail criteria in k6's
// threshold syntax, e.g. --threshold 'responseTime: p(95)<200'. A run with
// a failed threshold exits with code 99, as k6 does.
//
// A threshold names a metric, optionally restricted to one scenario with
// k6's submetric syntax (responseTime{scenario:go.Go1Step}), and one or
// more expressions AGG OP VALUE. Values of time trends are milliseconds,
// like k6, although stampede records microseconds.
package threshold

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// Threshold is a set of expressions on one metric.
type Threshold struct {
	// Metric is the metric name, e.g. "responseTime", including the tags
	// of a tagged submetric other than scenario, as registered:
	// "http_req_duration{expected_response:true}".
	Metric string
	// Scenario restricts the threshold to one scenario; empty means all
	// scenarios together.
	Scenario string
	// Exprs are the conditions; each must hold.
	Exprs []Expr
	// Aborts are the expressions with abortOnFail (k6 options form).
	Aborts []Abort
}

// Key is the k6 name of the (sub)metric: METRIC or METRIC{scenario:NAME}.
// The summary JSON uses it as the metric's key.
func (t Threshold) Key() string {
	if t.Scenario == "" {
		return t.Metric
	}
	return metric.WithTag(t.Metric, "scenario", t.Scenario)
}

// String is the canonical spec, which Parse accepts.
func (t Threshold) String() string {
	src := make([]string, len(t.Exprs))
	for i, e := range t.Exprs {
		src[i] = e.Source
	}
	return t.Key() + ": " + strings.Join(src, "; ")
}

// Expr is one condition AGG OP VALUE.
type Expr struct {
	// Source is the expression as written, trimmed: k6 uses it as the
	// threshold's name in summaries ("p(95)<200").
	Source string
	Agg    Agg
	Op     Op
	// Value is the bound, in ms for time trends.
	Value float64
}

// Abort is k6's abortOnFail for expression Expr (an index into Exprs):
// the run ends as soon as it fails, once Delay (delayAbortEval) of the
// run has passed.
type Abort struct {
	Expr  int
	Delay time.Duration
}

// Agg is the statistic a threshold tests.
type Agg struct {
	// Name is one of avg, min, max, med, p (trends), count, rate
	// (counters: per second; rates: fraction of passes) and value (gauges).
	Name string
	// P is the percentile of "p", in (0, 100].
	P float64
}

// String returns the k6 spelling: "avg", "p(99.9)".
func (a Agg) String() string {
	if a.Name == "p" {
		return "p(" + strconv.FormatFloat(a.P, 'f', -1, 64) + ")"
	}
	return a.Name
}

// Op is a comparison.
type Op uint8

// Comparisons of k6 thresholds.
const (
	Lt Op = iota + 1
	Le
	Gt
	Ge
	Eq
	Ne
)

var opText = [...]string{Lt: "<", Le: "<=", Gt: ">", Ge: ">=", Eq: "==", Ne: "!="}

func (o Op) String() string {
	if int(o) < len(opText) && o != 0 {
		return opText[o]
	}
	return "?"
}

// Holds reports whether observed OP bound.
func (o Op) Holds(observed, bound float64) bool {
	switch o {
	case Lt:
		return observed < bound
	case Le:
		return observed <= bound
	case Gt:
		return observed > bound
	case Ge:
		return observed >= bound
	case Eq:
		return observed == bound
	case Ne:
		return observed != bound
	}
	return false
}

// example is appended to syntax errors.
const example = "want METRIC[{scenario:NAME}]: AGG OP VALUE, e.g. 'responseTime: p(95)<200'"

// Parse parses one threshold spec:
//
//	METRIC[{scenario:NAME}]: EXPR[; EXPR...]
//
// The colon may be replaced by spaces ("responseTime p(95)<200"). EXPR is
// AGG OP VALUE with AGG one of avg, min, max, med, p(N) (N may be
// fractional), count, rate, value; OP one of < <= > >= == != (=== is read
// as ==); VALUE a number, in ms for time trends. Errors are one line.
func Parse(spec string) (Threshold, error) {
	s := strings.TrimSpace(spec)
	i := 0
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	t := Threshold{Metric: s[:i]}
	if t.Metric == "" {
		return Threshold{}, fmt.Errorf("threshold %q: missing metric name: %s", spec, example)
	}
	rest := s[i:]
	if strings.HasPrefix(rest, "{") {
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			return Threshold{}, fmt.Errorf("threshold %q: unclosed '{': %s", spec, example)
		}
		sc, tags, err := parseTags(rest[1:end])
		if err != nil {
			return Threshold{}, fmt.Errorf("threshold %q: %w", spec, err)
		}
		t.Scenario = sc
		if tags != "" {
			t.Metric += "{" + tags + "}"
		}
		rest = rest[end+1:]
	}
	trimmed := strings.TrimLeft(rest, " \t")
	switch {
	case strings.HasPrefix(trimmed, ":"):
		rest = trimmed[1:]
	case len(trimmed) < len(rest):
		rest = trimmed // METRIC EXPR
	case looksLikeExpr(t.Metric, rest):
		return Threshold{}, fmt.Errorf("threshold %q: missing metric name: %s", spec, example)
	default:
		return Threshold{}, fmt.Errorf("threshold %q: unexpected %q after the metric name: %s", spec, firstRune(rest), example)
	}
	for part := range strings.FieldsFuncSeq(rest, isExprSep) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		e, err := parseExpr(part)
		if err != nil {
			return Threshold{}, fmt.Errorf("threshold %q: %w", spec, err)
		}
		t.Exprs = append(t.Exprs, e)
	}
	if len(t.Exprs) == 0 {
		return Threshold{}, fmt.Errorf("threshold %q: no expression: %s", spec, example)
	}
	return t, nil
}

// ParseAll parses every spec (a repeated --threshold flag) and merges the
// expressions of specs on the same (sub)metric, in order, dropping exact
// repeats.
func ParseAll(specs []string) ([]Threshold, error) {
	var out []Threshold
	index := map[string]int{}
	for _, spec := range specs {
		t, err := Parse(spec)
		if err != nil {
			return nil, err
		}
		i, ok := index[t.Key()]
		if !ok {
			index[t.Key()] = len(out)
			out = append(out, t)
			continue
		}
	next:
		for _, e := range t.Exprs {
			for _, have := range out[i].Exprs {
				if have.Source == e.Source {
					continue next
				}
			}
			out[i].Exprs = append(out[i].Exprs, e)
		}
	}
	return out, nil
}

// isExprSep separates the expressions of a spec: ';' or, as in k6's
// option strings, ','.
func isExprSep(r rune) bool { return r == ';' || r == ',' }

// isNameByte accepts the characters of metric names: k6's [A-Za-z0-9_]
// plus '.' and '-' used by stampede's workloads.
func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// looksLikeExpr reports whether a spec starts with an expression instead
// of a metric ("p(95)<200").
func looksLikeExpr(name, rest string) bool {
	if _, err := parseAgg(name); err == nil && rest != "" && strings.IndexByte("<>=!", rest[0]) >= 0 {
		return true
	}
	return name == "p" && strings.HasPrefix(rest, "(")
}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

// parseTags reads the inside of {...}: k6's comma-separated key:value
// tags. The scenario tag restricts the threshold to one scenario; the other
// tags name a tagged submetric such as http_req_duration{expected_response:true},
// returned as "key:value[,key:value]" in the order written (Check tells
// whether the run records it).
func parseTags(s string) (scenario, tags string, err error) {
	var rest []string
	for part := range strings.SplitSeq(s, ",") {
		k, v, ok := strings.Cut(part, ":")
		k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"'`)
		switch {
		case !ok || k == "" || v == "":
			return "", "", fmt.Errorf("bad submetric {%s}: want {TAG:VALUE}, e.g. {scenario:NAME} or {expected_response:true}", s)
		case strings.ContainsAny(v, "{}"):
			return "", "", fmt.Errorf("bad tag value in {%s}", s)
		case k == "scenario":
			if scenario != "" {
				return "", "", fmt.Errorf("two scenario tags in {%s}", s)
			}
			scenario = v
		default:
			rest = append(rest, k+":"+v)
		}
	}
	return scenario, strings.Join(rest, ","), nil
}

func parseExpr(src string) (Expr, error) {
	i := strings.IndexAny(src, "<>=!")
	if i < 0 {
		return Expr{}, fmt.Errorf("expression %q has no comparison (< <= > >= == !=)", src)
	}
	j := i + 1
	for j < len(src) && strings.IndexByte("<>=!", src[j]) >= 0 {
		j++
	}
	e := Expr{Source: src}
	switch src[i:j] {
	case "<":
		e.Op = Lt
	case "<=":
		e.Op = Le
	case ">":
		e.Op = Gt
	case ">=":
		e.Op = Ge
	case "==", "===":
		e.Op = Eq
	case "!=", "!==":
		e.Op = Ne
	default:
		return Expr{}, fmt.Errorf("expression %q: unknown comparison %q (want < <= > >= == !=)", src, src[i:j])
	}
	agg, err := parseAgg(strings.TrimSpace(src[:i]))
	if err != nil {
		return Expr{}, fmt.Errorf("expression %q: %w", src, err)
	}
	e.Agg = agg
	val := strings.TrimSpace(src[j:])
	v, err := strconv.ParseFloat(val, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return Expr{}, fmt.Errorf("expression %q: value %q is not a number (time trends take ms, like k6)", src, val)
	}
	e.Value = v
	return e, nil
}

func parseAgg(s string) (Agg, error) {
	switch s {
	case "avg", "min", "max", "med", "count", "rate", "value":
		return Agg{Name: s}, nil
	case "":
		return Agg{}, fmt.Errorf("missing aggregation before the comparison (avg, min, max, med, p(N), count, rate, value)")
	}
	if strings.HasPrefix(s, "p(") && strings.HasSuffix(s, ")") {
		n := strings.TrimSpace(s[2 : len(s)-1])
		p, err := strconv.ParseFloat(n, 64)
		if err != nil || !(p > 0 && p <= 100) {
			return Agg{}, fmt.Errorf("bad percentile %q: want p(N) with 0 < N ≤ 100", s)
		}
		return Agg{Name: "p", P: p}, nil
	}
	return Agg{}, fmt.Errorf("unknown aggregation %q (want avg, min, max, med, p(N), count, rate or value)", s)
}
