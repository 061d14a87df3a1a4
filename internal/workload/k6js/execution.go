package k6js

import (
	"time"

	"github.com/dop251/goja"
)

// executionModule is "k6/execution": vu, scenario, instance and test, as
// objects with getters read at access time.
func (v *vm) executionModule() goja.Value {
	getters := func(m map[string]func() any) *goja.Object {
		o := v.rt.NewObject()
		for k, f := range m {
			o.DefineAccessorProperty(k, v.rt.ToValue(func() any { return f() }), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
		}
		return o
	}
	iter := func() int64 {
		if v.it == nil {
			return 0
		}
		return v.it.N
	}
	vuObj := getters(map[string]func() any{
		"idInTest":            func() any { return v.id },
		"idInInstance":        func() any { return v.id },
		"iterationInScenario": func() any { return iter() },
		"iterationInInstance": func() any { return iter() },
	})
	v.vuTags = v.rt.NewObject()
	vuObj.Set("tags", v.vuTags)
	scName := func() any {
		if v.sc == nil {
			return ""
		}
		return v.sc.Name
	}
	sc := getters(map[string]func() any{
		"name": scName,
		"executor": func() any {
			if v.sc == nil {
				return ""
			}
			return v.sc.Config.Executor
		},
		"startTime":           func() any { return v.sh.started.UnixMilli() },
		"iterationInInstance": func() any { return iter() },
		"iterationInTest":     func() any { return iter() },
		"progress": func() any {
			if v.sc == nil || v.sc.Config.TotalDuration() <= 0 {
				return 0
			}
			return min(1, float64(time.Since(v.sh.started))/float64(v.sc.Config.TotalDuration()))
		},
	})
	inst := getters(map[string]func() any{
		"vusActive":           func() any { return v.sh.vusActive.Load() },
		"vusInitialized":      func() any { return v.sh.vusActive.Load() },
		"iterationsCompleted": func() any { return v.sh.iterations.Load() },
		"currentTestRunDuration": func() any {
			return float64(time.Since(v.sh.started)) / float64(time.Millisecond)
		},
	})
	test := v.rt.NewObject()
	test.Set("abort", func(call goja.FunctionCall) goja.Value {
		reason := "test aborted"
		if a := call.Argument(0); !goja.IsUndefined(a) {
			reason = a.String()
		}
		if v.sh.abort != nil {
			v.sh.abort(reason)
		}
		panic(v.rt.NewGoError(errAborted))
	})
	return v.newModule("k6/execution", map[string]any{"vu": vuObj, "scenario": sc, "instance": inst, "test": test})
}
