package k6js

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// k6Exports lists what each module implements; a script using anything
// else of a module is refused before the run (see checkImports).
var k6Exports = map[string][]string{
	"k6":               {"check", "sleep", "group", "fail", "randomSeed"},
	"k6/http":          {"get", "post", "put", "patch", "del", "head", "options", "request", "batch", "expectedStatuses", "setResponseCallback", "cookieJar", "CookieJar"},
	"k6/metrics":       {"Counter", "Gauge", "Rate", "Trend"},
	"k6/data":          {"SharedArray"},
	"k6/execution":     {"vu", "scenario", "instance", "test"},
	"k6/x/nebulagraph": {"setOption", "init", "initWithSize"},
}

// newModule returns a module object whose members are made on first use
// (most scripts use a few functions of a module: a VU does not pay for the
// rest) and whose default export is itself, so that esbuild's
// `import http from 'k6/http'` and `import { check } from 'k6'` both work
// without copying it (see script.go).
func (v *vm) newModule(name string, fns map[string]any) goja.Value {
	m := &lazyObject{rt: v.rt, makers: fns, cache: map[string]goja.Value{}}
	m.self = v.rt.NewDynamicObject(m)
	return m.self
}

// lazyObject is a read-only module object that converts its members to
// JavaScript values on first access.
type lazyObject struct {
	rt     *goja.Runtime
	self   *goja.Object
	makers map[string]any
	cache  map[string]goja.Value
}

func (m *lazyObject) Get(k string) goja.Value {
	if k == "default" {
		return m.self
	}
	if val, ok := m.cache[k]; ok {
		return val
	}
	f, ok := m.makers[k]
	if !ok {
		return nil
	}
	val := m.rt.ToValue(f)
	m.cache[k] = val
	return val
}
func (m *lazyObject) Set(string, goja.Value) bool { return false }
func (m *lazyObject) Has(k string) bool {
	_, ok := m.makers[k]
	return ok || k == "default"
}
func (m *lazyObject) Delete(string) bool { return false }
func (m *lazyObject) Keys() []string {
	out := make([]string, 0, len(m.makers))
	for k := range m.makers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// k6Module is "k6": check, sleep, group, fail, randomSeed.
func (v *vm) k6Module() goja.Value {
	return v.newModule("k6", map[string]any{
		"check":      v.check,
		"sleep":      v.sleep,
		"group":      v.groupFn,
		"fail":       func(msg string) { v.throw("%s", msg) },
		"randomSeed": func(seed int64) { v.pcg.Seed(uint64(seed), uint64(seed)) },
	})
}

// check evaluates each named condition of sets on val, recording the
// checks rate and the check's own rate; it returns whether all passed.
func (v *vm) check(call goja.FunctionCall) goja.Value {
	if v.inInit {
		v.throw("check() is not available in the init context")
	}
	val := call.Argument(0)
	sets := call.Argument(1)
	if goja.IsUndefined(sets) || goja.IsNull(sets) {
		return v.rt.ToValue(true)
	}
	obj := sets.ToObject(v.rt)
	all := true
	var now time.Duration
	if v.it != nil {
		now = v.it.Now()
	}
	for _, k := range obj.Keys() {
		cond := obj.Get(k)
		ok := false
		if fn, isFn := goja.AssertFunction(cond); isFn {
			res, err := fn(goja.Undefined(), val)
			if err != nil {
				panic(err) // k6: an exception in a check aborts the iteration
			}
			ok = res.ToBoolean()
		} else {
			ok = cond.ToBoolean()
		}
		all = all && ok
		if v.it == nil {
			continue // setup() and teardown() record nothing
		}
		if id, named := v.sh.checks[k]; named {
			v.it.Rec.Rate(id, now, ok)
		} else {
			v.sh.log.once("check:"+k, fmt.Sprintf("WARN check %q has a name computed at run time: counted in checks, not listed by name", k))
		}
		v.it.Rec.Rate(metrics.IDChecks, now, ok)
	}
	return v.rt.ToValue(all)
}

// sleep pauses the VU for s seconds, returning early when the run stops.
func (v *vm) sleep(s float64) {
	if v.inInit {
		v.throw("sleep() is not available in the init context")
	}
	if !(s > 0) || math.IsInf(s, 0) {
		return
	}
	if v.it != nil {
		v.it.Rec.Tick(v.it.Now())
	}
	t := time.NewTimer(time.Duration(s * float64(time.Second)))
	defer t.Stop()
	select {
	case <-t.C:
	case <-v.ctx.Done():
		panic(v.rt.NewGoError(v.ctx.Err()))
	}
}

// groupFn runs fn inside group name, recording group_duration.
func (v *vm) groupFn(name string, fn goja.Callable) goja.Value {
	if v.inInit {
		v.throw("group() is not available in the init context")
	}
	if strings.Contains(name, "::") {
		v.throw("group name %q must not contain '::'", name)
	}
	prev := v.group
	v.group = prev + "::" + name
	defer func() { v.group = prev }()
	if v.it == nil {
		res, err := fn(goja.Undefined())
		if err != nil {
			panic(err)
		}
		return res
	}
	start := v.it.Now()
	res, err := fn(goja.Undefined())
	end := v.it.Now()
	v.it.Rec.Trend(v.sh.groupID, end, int64((end-start)/time.Microsecond))
	if err != nil {
		panic(err)
	}
	return res
}

// open reads a file relative to the script (init context only): a string,
// or an ArrayBuffer with mode "b".
func (v *vm) open(path string, mode ...string) goja.Value {
	if !v.inInit {
		v.throw("open() is only available in the init context")
	}
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(v.sh.script.Dir, p)
	}
	b, err := readBounded(p, MaxOpenSize)
	if err != nil {
		v.throw("open(%q): %v", path, err)
	}
	if len(mode) > 0 && mode[0] == "b" {
		return v.rt.ToValue(v.rt.NewArrayBuffer(b))
	}
	return v.rt.ToValue(string(b))
}

// console writes to stderr, rate-limited.
func (v *vm) console() goja.Value {
	mk := func(level string) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			parts := make([]string, len(call.Arguments))
			for i, a := range call.Arguments {
				parts[i] = v.format(a)
			}
			v.sh.log.line(level, strings.Join(parts, " "))
			return goja.Undefined()
		}
	}
	fns := map[string]any{}
	for name, level := range map[string]string{"log": "INFO", "info": "INFO", "debug": "DEBU", "warn": "WARN", "error": "ERRO"} {
		fns[name] = mk(level)
	}
	return v.newModule("console", fns)
}

// format renders a console argument: strings as they are, objects as JSON.
func (v *vm) format(a goja.Value) string {
	if o, ok := a.(*goja.Object); ok && o.ClassName() != "Function" && o.ClassName() != "Error" {
		if b, err := json.Marshal(o.Export()); err == nil {
			return string(b)
		}
	}
	return a.String()
}

// metricsModule is "k6/metrics": Counter, Gauge, Rate, Trend.
func (v *vm) metricsModule() goja.Value {
	mk := func(kind metrics.Kind) func(goja.ConstructorCall) *goja.Object {
		return func(call goja.ConstructorCall) *goja.Object {
			if !v.inInit {
				v.throw("metrics must be declared in the init context")
			}
			name := call.Argument(0).String()
			isTime := kind == metrics.KindTrend && call.Argument(1).ToBoolean()
			m, err := v.sh.metric(name, kind, isTime, v.id == 0)
			if err != nil {
				v.refuse("%s: %v", v.sh.script.Path, err)
			}
			o := call.This
			o.Set("name", name)
			o.Set("add", func(c goja.FunctionCall) goja.Value {
				if v.it == nil {
					v.throw("%s.add() outside an iteration", name)
				}
				v.sh.addSample(v.it.Rec, v.it.Now(), m, c.Argument(0), v.tagsOf(c.Argument(1)))
				return goja.Undefined()
			})
			return nil
		}
	}
	return v.newModule("k6/metrics", map[string]any{
		"Counter": mk(metrics.KindCounter), "Gauge": mk(metrics.KindGauge),
		"Rate": mk(metrics.KindRate), "Trend": mk(metrics.KindTrend),
	})
}

// tagsOf reads a tags object, with the VU's scenario and group tags.
func (v *vm) tagsOf(t goja.Value) map[string]string {
	tags := map[string]string{"group": v.group}
	if v.sc != nil {
		tags["scenario"] = v.sc.Name
		for k, val := range v.sc.Tags {
			tags[k] = val
		}
	}
	for k, val := range v.sh.opts.Tags {
		tags[k] = val
	}
	if o, ok := t.(*goja.Object); ok && !goja.IsUndefined(t) && !goja.IsNull(t) {
		for _, k := range o.Keys() {
			tags[k] = o.Get(k).String()
		}
	}
	return tags
}

// dataModule is "k6/data": SharedArray, computed once, read by every VU.
func (v *vm) dataModule() goja.Value {
	return v.newModule("k6/data", map[string]any{
		"SharedArray": func(call goja.ConstructorCall) *goja.Object {
			if !v.inInit {
				v.throw("SharedArray must be created in the init context")
			}
			name := call.Argument(0).String()
			elems := v.sh.sharedArray(name, func() []string {
				fn, ok := goja.AssertFunction(call.Argument(1))
				if !ok {
					v.throw("SharedArray %q needs a function returning an array", name)
				}
				res, err := fn(goja.Undefined())
				if err != nil {
					panic(err)
				}
				arr, ok := res.(*goja.Object)
				if !ok || arr.ClassName() != "Array" {
					v.throw("SharedArray %q: the function must return an array", name)
				}
				n := int(arr.Get("length").ToInteger())
				out := make([]string, n)
				for i := 0; i < n; i++ {
					b, err := json.Marshal(arr.Get(fmt.Sprint(i)).Export())
					if err != nil {
						v.throw("SharedArray %q element %d: %v", name, i, err)
					}
					out[i] = string(b)
				}
				return out
			})
			return v.rt.NewDynamicArray(&sharedArray{v: v, elems: elems})
		},
	})
}

// sharedArray is a read-only view of a SharedArray's JSON elements,
// parsed on access as k6 does.
type sharedArray struct {
	v     *vm
	elems []string
}

func (a *sharedArray) Len() int { return len(a.elems) }
func (a *sharedArray) Get(i int) goja.Value {
	if i < 0 || i >= len(a.elems) {
		return goja.Undefined()
	}
	var x any
	_ = json.Unmarshal([]byte(a.elems[i]), &x)
	return a.v.rt.ToValue(x)
}
func (a *sharedArray) Set(int, goja.Value) bool {
	a.v.throw("SharedArray is read-only")
	return false
}
func (a *sharedArray) SetLen(int) bool {
	a.v.throw("SharedArray is read-only")
	return false
}

// sharedArray returns the elements of SharedArray name, made by mk once.
func (s *shared) sharedArray(name string, mk func() []string) []string {
	s.arrMu.Lock()
	if e, ok := s.sharedArrays[name]; ok {
		s.arrMu.Unlock()
		return e
	}
	s.arrMu.Unlock()
	e := mk()
	s.arrMu.Lock()
	defer s.arrMu.Unlock()
	if prev, ok := s.sharedArrays[name]; ok {
		return prev
	}
	s.sharedArrays[name] = e
	return e
}

// metric registers (probe) or finds (VUs) custom metric name.
func (s *shared) metric(name string, kind metrics.Kind, isTime, probe bool) (*customMetric, error) {
	if m, ok := s.custom[name]; ok {
		if m.kind != kind {
			return nil, fmt.Errorf("metric %q declared as a %s and as a %s", name, m.kind, kind)
		}
		return m, nil
	}
	if kind == metrics.KindTrend && (name == metrics.ResponseTime || name == metrics.Latency) {
		// NebulaGraph-Bench's scripts declare Trend('latency') and
		// Trend('responseTime') and add each response's figures: stampede
		// records both per request already.
		if !s.nebula.used.Load() {
			return nil, fmt.Errorf("metric name %q is stampede's own per-request trend: rename the script's metric", name)
		}
		s.log.once("builtin:"+name, fmt.Sprintf("INFO Trend %q: stampede records it for every execute() (client µs / server µs); the script's add() calls are not counted twice", name))
		return &customMetric{kind: kind, builtin: true}, nil
	}
	if !probe {
		return nil, fmt.Errorf("metric %q is declared by a VU but not by the init context the script's first run saw (declare metrics unconditionally)", name)
	}
	if !validMetricName(name) {
		return nil, fmt.Errorf("metric name %q: k6 allows letters, digits and _ (1 to 128 characters)", name)
	}
	unit := metrics.UnitNone
	if isTime {
		unit = metrics.UnitMicros
	}
	id, err := s.reg.Add(metrics.Def{Name: name, Kind: kind, Unit: unit})
	if err != nil {
		return nil, err
	}
	m := &customMetric{id: id, kind: kind, isTime: isTime}
	s.custom[name] = m
	return m, nil
}

func validMetricName(n string) bool {
	if n == "" || len(n) > 128 {
		return false
	}
	for _, c := range n {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// addSample records value val of custom metric m with tags.
func (s *shared) addSample(rec *metrics.Recorder, at time.Duration, m *customMetric, val goja.Value, tags map[string]string) {
	if m.builtin {
		return
	}
	f := val.ToFloat()
	if m.kind == metrics.KindTrend && m.isTime {
		f *= 1000 // ms -> µs
	}
	record := func(id metrics.ID) {
		switch m.kind {
		case metrics.KindCounter:
			rec.Add(id, at, int64(math.Round(f)))
		case metrics.KindRate:
			rec.Rate(id, at, val.ToBoolean())
		case metrics.KindGauge:
			rec.Gauge(id, f)
		case metrics.KindTrend:
			rec.Trend(id, at, int64(math.Round(f)))
		}
	}
	record(m.id)
	for _, sub := range s.subs[s.reg.Def(m.id).Name] {
		if sub.matches(tags) {
			record(sub.id)
		}
	}
}

// sortedNames is for messages.
func sortedNames(m map[string]metrics.ID) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
