package nebulatest

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// val is a value MATCH evaluates: nGQL's scalars, dates and datetimes,
// lists and maps, and references to the store's vertices and edges.
type val struct {
	k    vkind
	i    int64   // int; bool (0/1); date and datetime (Unix µs, UTC); vertex vid
	f    float64 // float
	s    string  // string; tag name of a tag reference
	list []val
	m    map[string]val
	e    *edgeRef
}

type vkind uint8

const (
	kNull vkind = iota
	kBool
	kInt
	kFloat
	kStr
	kDate
	kDateTime
	kList
	kMap
	kVertex
	kEdge
	kTagRef // v.Tag, before .prop
)

// edgeRef is one edge of the store (rank 0).
type edgeRef struct {
	name     string
	src, dst int64
}

var nullVal = val{}

func intVal(i int64) val  { return val{k: kInt, i: i} }
func strVal(s string) val { return val{k: kStr, s: s} }
func boolVal(b bool) val {
	if b {
		return val{k: kBool, i: 1}
	}
	return val{k: kBool}
}

// truthy is a WHERE condition's verdict: NULL and false reject.
func (v val) truthy() bool { return v.k == kBool && v.i != 0 }

// dateTimeLayouts are the texts datetime() accepts here.
var dateTimeLayouts = []string{"2006-01-02T15:04:05.000", "2006-01-02T15:04:05", "2006-01-02T15:04:05.000000", "2006-01-02 15:04:05", "2006-01-02T15:04:05.000-0700", "2006-01-02"}

// parseInstant reads datetime("...") or date("...") text.
func parseInstant(fn, s string) (val, error) {
	if fn == "date" {
		t, err := time.Parse("2006-01-02", s)
		if err != nil {
			return nullVal, fmt.Errorf("bad date %q", s)
		}
		return val{k: kDate, i: t.UnixMicro()}, nil
	}
	for _, l := range dateTimeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return val{k: kDateTime, i: t.UTC().UnixMicro()}, nil
		}
	}
	return nullVal, fmt.Errorf("bad datetime %q", s)
}

// fromGS converts a stored value.
func fromGS(v *graphsvc.Value) val {
	switch {
	case v == nil:
		return nullVal
	case v.BVal != nil:
		return boolVal(*v.BVal)
	case v.IVal != nil:
		return intVal(*v.IVal)
	case v.FVal != nil:
		return val{k: kFloat, f: *v.FVal}
	case v.SVal != nil:
		return strVal(string(v.SVal))
	case v.DVal != nil:
		t := time.Date(int(v.DVal.Year), time.Month(v.DVal.Month), int(v.DVal.Day), 0, 0, 0, 0, time.UTC)
		return val{k: kDate, i: t.UnixMicro()}
	case v.DtVal != nil:
		d := v.DtVal
		t := time.Date(int(d.Year), time.Month(d.Month), int(d.Day), int(d.Hour), int(d.Minute), int(d.Sec), int(d.Microsec)*1000, time.UTC)
		return val{k: kDateTime, i: t.UnixMicro()}
	case v.LVal != nil:
		out := val{k: kList}
		for _, x := range v.LVal.Values {
			out.list = append(out.list, fromGS(x))
		}
		return out
	}
	return nullVal
}

// instantGS is the stored form of a date or datetime.
func instantGS(v val) *graphsvc.Value {
	t := time.UnixMicro(v.i).UTC()
	if v.k == kDate {
		return &graphsvc.Value{DVal: &graphsvc.Date{Year: int16(t.Year()), Month: int8(t.Month()), Day: int8(t.Day())}}
	}
	return &graphsvc.Value{DtVal: &graphsvc.DateTime{Year: int16(t.Year()), Month: int8(t.Month()), Day: int8(t.Day()),
		Hour: int8(t.Hour()), Minute: int8(t.Minute()), Sec: int8(t.Second()), Microsec: int32(t.Nanosecond() / 1000)}}
}

// toGS converts a result value for the answer's data set.
func toGS(v val) *graphsvc.Value {
	switch v.k {
	case kBool:
		b := v.i != 0
		return &graphsvc.Value{BVal: &b}
	case kInt:
		return i64(v.i)
	case kFloat:
		f := v.f
		return &graphsvc.Value{FVal: &f}
	case kStr:
		return str(v.s)
	case kDate, kDateTime:
		return instantGS(v)
	case kList:
		l := &graphsvc.NList{Values: []*graphsvc.Value{}}
		for _, x := range v.list {
			l.Values = append(l.Values, toGS(x))
		}
		return &graphsvc.Value{LVal: l}
	case kMap:
		m := &graphsvc.NMap{Kvs: map[string]*graphsvc.Value{}}
		for k, x := range v.m {
			m.Kvs[k] = toGS(x)
		}
		return &graphsvc.Value{MVal: m}
	case kVertex:
		return &graphsvc.Value{VVal: &graphsvc.Vertex{Vid: i64(v.i)}}
	case kEdge:
		return &graphsvc.Value{EVal: &graphsvc.Edge{Src: i64(v.e.src), Dst: i64(v.e.dst), Type: 1, Name: []byte(v.e.name)}}
	}
	return null()
}

// compareVals orders two non-null values of comparable kinds (numbers,
// strings by bytes, booleans, instants, vertices by vid); ok is false
// when they cannot be compared.
func compareVals(a, b val) (int, bool) {
	num := func(v val) (float64, bool) {
		switch v.k {
		case kInt:
			return float64(v.i), true
		case kFloat:
			return v.f, true
		}
		return 0, false
	}
	switch {
	case a.k == kInt && b.k == kInt:
		return cmp.Compare(a.i, b.i), true
	case a.k == kStr && b.k == kStr:
		return strings.Compare(a.s, b.s), true
	case a.k == b.k && (a.k == kBool || a.k == kDate || a.k == kDateTime || a.k == kVertex):
		return cmp.Compare(a.i, b.i), true
	case a.k == kEdge && b.k == kEdge:
		return cmp.Or(strings.Compare(a.e.name, b.e.name), cmp.Compare(a.e.src, b.e.src), cmp.Compare(a.e.dst, b.e.dst)), true
	case a.k == kList && b.k == kList:
		for i := range min(len(a.list), len(b.list)) {
			if c, ok := compareVals(a.list[i], b.list[i]); !ok || c != 0 {
				return c, ok
			}
		}
		return cmp.Compare(len(a.list), len(b.list)), true
	}
	x, ok1 := num(a)
	y, ok2 := num(b)
	if ok1 && ok2 {
		return cmp.Compare(x, y), true
	}
	return 0, false
}

// sortCompare orders values for ORDER BY: NULL after every value
// (ascending), incomparable kinds by kind.
func sortCompare(a, b val) int {
	switch {
	case a.k == kNull && b.k == kNull:
		return 0
	case a.k == kNull:
		return 1
	case b.k == kNull:
		return -1
	}
	if c, ok := compareVals(a, b); ok {
		return c
	}
	return cmp.Compare(a.k, b.k)
}

// equalVals is ==: NULL when either side is NULL.
func equalVals(a, b val) val {
	if a.k == kNull || b.k == kNull {
		return nullVal
	}
	if c, ok := compareVals(a, b); ok {
		return boolVal(c == 0)
	}
	if a.k == kMap && b.k == kMap {
		return boolVal(a.key() == b.key())
	}
	return boolVal(false)
}

// key is a value's identity for DISTINCT and grouping.
func (v val) key() string {
	var b strings.Builder
	v.appendKey(&b)
	return b.String()
}

func (v val) appendKey(b *strings.Builder) {
	b.WriteByte(byte('a' + v.k))
	switch v.k {
	case kFloat:
		if v.f == math.Trunc(v.f) && math.Abs(v.f) < 1<<53 { // 1.0 groups with 1
			b.WriteString(strconv.FormatInt(int64(v.f), 10))
			break
		}
		b.WriteString(strconv.FormatFloat(v.f, 'g', -1, 64))
	case kStr, kTagRef:
		b.WriteString(strconv.Quote(v.s))
	case kList:
		for _, x := range v.list {
			x.appendKey(b)
			b.WriteByte(',')
		}
	case kMap:
		keys := make([]string, 0, len(v.m))
		for k := range v.m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b.WriteString(strconv.Quote(k))
			v.m[k].appendKey(b)
		}
	case kEdge:
		fmt.Fprintf(b, "%s/%d/%d", v.e.name, v.e.src, v.e.dst)
	}
	if v.k == kInt || v.k == kBool || v.k == kDate || v.k == kDateTime || v.k == kVertex || v.k == kTagRef {
		b.WriteString(strconv.FormatInt(v.i, 10))
	}
	b.WriteByte(';')
}
