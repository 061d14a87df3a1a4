package threshold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ParseK6Map parses thresholds in the form of k6's options and of
// --config files: a map from a (sub)metric key, e.g.
// "http_req_duration{expected_response:true}", to an expression string, or
// a list of expression strings and objects {threshold, abortOnFail,
// delayAbortEval}:
//
//	{"http_req_duration": ["p(95)<200", {"threshold": "p(99)<500", "abortOnFail": true, "delayAbortEval": "10s"}],
//	 "checks": "rate>0.99"}
//
// A string may hold several expressions separated by commas. Keys are
// taken in sorted order; the result merges expressions per metric like
// ParseAll.
func ParseK6Map(m map[string]json.RawMessage) ([]Threshold, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []Threshold
	index := map[string]int{}
	for _, k := range keys {
		t, err := ParseK6(k, m[k])
		if err != nil {
			return nil, err
		}
		if i, ok := index[t.Key()]; ok {
			for _, a := range t.Aborts {
				out[i].Aborts = append(out[i].Aborts, Abort{Expr: a.Expr + len(out[i].Exprs), Delay: a.Delay})
			}
			out[i].Exprs = append(out[i].Exprs, t.Exprs...)
			continue
		}
		index[t.Key()] = len(out)
		out = append(out, t)
	}
	return out, nil
}

// k6Expr is the object form of one threshold expression.
type k6Expr struct {
	Threshold      string          `json:"threshold" yaml:"threshold"`
	AbortOnFail    bool            `json:"abortOnFail" yaml:"abortOnFail"`
	DelayAbortEval json.RawMessage `json:"delayAbortEval" yaml:"delayAbortEval"`
}

// ParseK6 parses one entry of k6's thresholds map: key and its JSON value.
func ParseK6(key string, raw json.RawMessage) (Threshold, error) {
	raw = bytes.TrimSpace(raw)
	type item struct {
		src   string
		abort bool
		delay time.Duration
	}
	var items []item
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		items = append(items, item{src: one})
	} else {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return Threshold{}, fmt.Errorf("threshold %q: want a string or a list of strings and {threshold, abortOnFail, delayAbortEval} objects", key)
		}
		for _, el := range list {
			if err := json.Unmarshal(el, &one); err == nil {
				items = append(items, item{src: one})
				continue
			}
			dec := json.NewDecoder(bytes.NewReader(el))
			dec.DisallowUnknownFields()
			var o k6Expr
			if err := dec.Decode(&o); err != nil {
				return Threshold{}, fmt.Errorf("threshold %q: %s: %v", key, el, err)
			}
			if strings.TrimSpace(o.Threshold) == "" {
				return Threshold{}, fmt.Errorf("threshold %q: an object needs \"threshold\": \"EXPR\"", key)
			}
			d, err := parseK6Duration(o.DelayAbortEval)
			if err != nil {
				return Threshold{}, fmt.Errorf("threshold %q: delayAbortEval: %v", key, err)
			}
			items = append(items, item{src: o.Threshold, abort: o.AbortOnFail, delay: d})
		}
	}
	if len(items) == 0 {
		return Threshold{}, fmt.Errorf("threshold %q: no expression", key)
	}
	var t Threshold
	for i, it := range items {
		p, err := Parse(key + ": " + it.src)
		if err != nil {
			return Threshold{}, err
		}
		if i == 0 {
			t = p
			t.Exprs = nil
		}
		for _, e := range p.Exprs {
			if it.abort {
				t.Aborts = append(t.Aborts, Abort{Expr: len(t.Exprs), Delay: it.delay})
			}
			t.Exprs = append(t.Exprs, e)
		}
	}
	return t, nil
}

// parseK6Duration reads "10s", "1m30s" or a number of ms (empty: 0).
func parseK6Duration(raw json.RawMessage) (time.Duration, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if d, err := time.ParseDuration(s); err == nil && d >= 0 {
			return d, nil
		}
		if ms, err := strconv.ParseFloat(s, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), nil
		}
		return 0, fmt.Errorf("%q is not a duration like 10s", s)
	}
	var ms float64
	if err := json.Unmarshal(raw, &ms); err != nil || ms < 0 {
		return 0, fmt.Errorf("%s is not a duration", raw)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// AbortAt is the earliest run time at which an abortOnFail expression of
// ts may stop the run, and whether any has abortOnFail.
func AbortAt(ts []Threshold) (time.Duration, bool) {
	var at time.Duration
	found := false
	for _, t := range ts {
		for _, a := range t.Aborts {
			if !found || a.Delay < at {
				at, found = a.Delay, true
			}
		}
	}
	return at, found
}
