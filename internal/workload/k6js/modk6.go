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

// k6Members lists what the objects of k6/execution implement (see
// checkImports); k6's others (e.g. test.fail, vu.metrics) are refused.
var k6Members = map[string][]string{
	"k6/execution.vu":       {"idInTest", "idInInstance", "iterationInScenario", "iterationInInstance", "tags"},
	"k6/execution.scenario": {"name", "executor", "startTime", "progress", "iterationInInstance", "iterationInTest"},
	"k6/execution.instance": {"vusActive", "vusInitialized", "iterationsCompleted", "currentTestRunDuration"},
	"k6/execution.test":     {"abort"},
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
			continue // not measured (no iteration, setup or teardown)
		}
		if id, named := v.sh.checks[k]; named {
			v.it.Rec.Rate(id, now, ok)
		} else {
			v.sh.log.once("check:"+k, fmt.Sprintf("WARN check %q has a name computed at run time: counted in checks, not listed by name", k))
		}
		v.it.Rec.Rate(metrics.IDChecks, now, ok)
		if subs := v.sh.subs[metrics.Checks]; len(subs) > 0 {
			tags := v.tagsOf(goja.Undefined())
			tags["check"] = k
			for _, sub := range subs {
				if sub.matches(tags) {
					v.it.Rec.Rate(sub.id, now, ok)
				}
			}
		}
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
	d := int64((end - start) / time.Microsecond)
	v.it.Rec.Trend(v.sh.groupID, end, d)
	if subs := v.sh.subs["group_duration"]; len(subs) > 0 {
		tags := v.tagsOf(goja.Undefined())
		for _, sub := range subs {
			if sub.matches(tags) {
				v.it.Rec.Trend(sub.id, end, d)
			}
		}
	}
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
