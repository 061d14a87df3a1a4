package k6js

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/dop251/goja"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

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
	if v.vuTags != nil {
		for _, k := range v.vuTags.Keys() {
			tags[k] = v.vuTags.Get(k).String()
		}
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
func (s *shared) addSample(rec vu.Recorder, at time.Duration, m *customMetric, val goja.Value, tags map[string]string) {
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
