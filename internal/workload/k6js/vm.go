package k6js

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"github.com/dop251/goja"

	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/vu"
)

// vm is one JavaScript runtime: the init-context probe (id 0) or one VU's.
// It is used by one goroutine at a time.
type vm struct {
	sh      *shared
	rt      *goja.Runtime
	id      int64 // __VU: 0 in the probe, then 1.. across the test
	sc      *Scenario
	exports *goja.Object
	inInit  bool

	ctx   context.Context
	it    *vu.Iter
	stop  func() bool
	group string // current group path ("" at the root)
	rng   *rand.Rand
	pcg   *rand.PCG

	modules map[string]goja.Value
	http    *httpClient
	neb     *nebulaState
	// vuTags is k6/execution's vu.tags: tags the script sets on its VU's
	// samples (nil until the module is imported).
	vuTags *goja.Object
	// refusal is a usage error raised in the init context (an unsupported
	// module), reported instead of the JavaScript exception.
	refusal error
}

// newVM makes a runtime and runs the script's init context in it.
func newVM(sh *shared, id int64, sc *Scenario) (*vm, error) {
	v := &vm{sh: sh, rt: goja.New(), id: id, sc: sc, inInit: true, modules: map[string]goja.Value{},
		pcg: rand.NewPCG(uint64(sh.seed), uint64(id))}
	v.rng = rand.New(v.pcg)
	v.rt.SetFieldNameMapper(goja.TagFieldNameMapper("js", true))
	v.rt.SetRandSource(v.rng.Float64)
	vars := map[string]string{}
	for k, val := range sh.env {
		vars[k] = val
	}
	if sc != nil {
		for k, val := range sc.Env {
			vars[k] = val
		}
	}
	env := v.rt.NewDynamicObject(&envObject{rt: v.rt, vars: vars, getenv: sh.getenv})
	g := v.rt.GlobalObject()
	g.Set("__ENV", env)
	g.Set("__VU", id)
	g.Set("__ITER", 0)
	g.Set("open", v.open)
	g.Set("console", v.console())
	g.Set("global", g)
	g.Set("globalThis", g)
	exp, err := v.runModule(filepath.Join(sh.script.Dir, filepath.Base(sh.script.Path)), sh.script.Path)
	if err != nil {
		return nil, err
	}
	v.exports = exp
	v.inInit = false
	return v, nil
}

// close releases the runtime's connections.
func (v *vm) close() {
	if v.http != nil {
		v.http.close()
	}
	if v.neb != nil {
		v.neb.close()
	}
}

// runModule runs a compiled module and returns its exports.
func (v *vm) runModule(abs, name string) (*goja.Object, error) {
	prog, err := v.sh.script.module(abs, name)
	if err != nil {
		return nil, err
	}
	fnv, err := v.rt.RunProgram(prog)
	if err != nil {
		return nil, v.initErr(err)
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return nil, fmt.Errorf("%s: internal error: module wrapper is not a function", name)
	}
	module := v.rt.NewObject()
	exports := v.rt.NewObject()
	module.Set("exports", exports)
	if _, err := fn(goja.Undefined(), exports, v.rt.ToValue(v.require(filepath.Dir(abs))), module, v.rt.ToValue(abs), v.rt.ToValue(filepath.Dir(abs))); err != nil {
		return nil, v.initErr(err)
	}
	return module.Get("exports").ToObject(v.rt), nil
}

// initErr turns an exception of the init context into an error: a refusal
// stays a usage error, anything else is the script's error with its line.
func (v *vm) initErr(err error) error {
	if v.refusal != nil {
		return v.refusal
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return usage.Errorf("%s: init context: %s", v.sh.script.Path, oneLine(ex))
	}
	return usage.Errorf("%s: %v", v.sh.script.Path, err)
}

// refuse records a usage error and returns the exception that unwinds the
// init context.
func (v *vm) refuse(format string, args ...any) goja.Value {
	err := usage.Errorf(format, args...)
	if v.refusal == nil {
		v.refusal = err
	}
	panic(v.rt.NewGoError(err))
}

// throw raises a JavaScript Error with msg.
func (v *vm) throw(format string, args ...any) {
	panic(v.rt.NewGoError(fmt.Errorf(format, args...)))
}

// require returns the require function of modules in dir.
func (v *vm) require(dir string) func(string) goja.Value {
	return func(name string) goja.Value {
		if m, ok := v.modules[name]; ok {
			return m
		}
		var m goja.Value
		switch {
		case name == "k6":
			m = v.k6Module()
		case name == "k6/http":
			m = v.httpModule()
		case name == "k6/metrics":
			m = v.metricsModule()
		case name == "k6/data":
			m = v.dataModule()
		case name == "k6/execution":
			m = v.executionModule()
		case name == "k6/x/nebulagraph":
			m = v.nebulaModule()
		case strings.HasPrefix(name, "./") || strings.HasPrefix(name, "../") || strings.HasPrefix(name, "/"):
			if !v.inInit {
				v.throw("require(%q) outside the init context", name)
			}
			abs := name
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(dir, name)
			}
			exp, err := v.runModule(abs, name)
			if err != nil {
				if v.refusal == nil {
					v.refusal = err
				}
				panic(v.rt.NewGoError(err))
			}
			m = exp
		default:
			return v.refuse("%s: module %q is not supported by stampede (supported: k6, k6/http, k6/metrics, k6/data, k6/execution, k6/x/nebulagraph, local files)", v.sh.script.Path, name)
		}
		v.modules[name] = m
		return m
	}
}

// oneLine is an exception's message with the script position it was
// thrown at, e.g. "Error: boom at script.js:12:5".
func oneLine(ex *goja.Exception) string {
	msg := ex.Value().String()
	if o, ok := ex.Value().(*goja.Object); ok {
		if m := o.Get("message"); m != nil && !goja.IsUndefined(m) {
			if n := o.Get("name"); n != nil && !goja.IsUndefined(n) && n.String() != "GoError" {
				msg = n.String() + ": " + m.String()
			} else {
				msg = m.String()
			}
		}
	}
	for _, f := range ex.Stack() {
		pos := f.Position()
		if pos.Filename == "" || pos.Line == 0 {
			continue
		}
		return fmt.Sprintf("%s at %s:%d:%d", msg, pos.Filename, pos.Line, pos.Column)
	}
	return msg
}

// envObject is __ENV: the -e values and scenario env, then the process
// environment (read on access; only the -e and scenario keys are listed).
type envObject struct {
	rt     *goja.Runtime
	vars   map[string]string
	getenv func(string) string
}

func (e *envObject) Get(k string) goja.Value {
	if v, ok := e.vars[k]; ok {
		return e.rt.ToValue(v)
	}
	if e.getenv != nil {
		if v := e.getenv(k); v != "" {
			return e.rt.ToValue(v)
		}
	}
	return goja.Undefined()
}
func (e *envObject) Set(k string, v goja.Value) bool { e.vars[k] = v.String(); return true }
func (e *envObject) Has(k string) bool               { return !goja.IsUndefined(e.Get(k)) }
func (e *envObject) Delete(k string) bool            { delete(e.vars, k); return true }
func (e *envObject) Keys() []string {
	out := make([]string, 0, len(e.vars))
	for k := range e.vars {
		out = append(out, k)
	}
	return out
}
