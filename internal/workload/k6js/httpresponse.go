package k6js

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// location is the Location header of a redirect response.
func (v *vm) location(status int, err error) string {
	if status < 300 || status >= 400 || status == 304 {
		return ""
	}
	for _, hl := range v.http.capture.Headers {
		if k, val, ok := strings.Cut(hl, ":"); ok && strings.EqualFold(k, "location") {
			return strings.TrimSpace(val)
		}
	}
	return ""
}

// recordHTTPSubs records the tagged http_* submetrics thresholds ask for.
func (v *vm) recordHTTPSubs(at time.Duration, rawURL, name, method string, status int, expected bool, err error, extra map[string]string) {
	tags := v.tagsOf(goja.Undefined())
	for k, val := range extra {
		tags[k] = val
	}
	tags["url"], tags["name"], tags["method"] = rawURL, name, method
	tags["status"] = strconv.Itoa(status)
	tags["expected_response"] = strconv.FormatBool(expected)
	if err != nil && status == 0 {
		tags["error_code"] = strconv.Itoa(errorCode(err, status))
	}
	rec, hs := v.it.Rec, &v.http.hs
	d := int64(hs.Duration() / time.Microsecond)
	for base, subs := range v.sh.subs {
		for _, s := range subs {
			if !s.matches(tags) {
				continue
			}
			switch base {
			case metrics.HTTPReqs:
				rec.Add(s.id, at, 1)
			case metrics.HTTPReqFailed:
				rec.Rate(s.id, at, !expected)
			case metrics.HTTPReqDuration:
				rec.Trend(s.id, at, d)
			case metrics.HTTPReqWaiting:
				rec.Trend(s.id, at, int64(hs.Waiting/time.Microsecond))
			case metrics.HTTPReqBlocked:
				rec.Trend(s.id, at, int64(hs.Blocked/time.Microsecond))
			case metrics.HTTPReqConnecting:
				rec.Trend(s.id, at, int64(hs.Connecting/time.Microsecond))
			case metrics.HTTPReqSending:
				rec.Trend(s.id, at, int64(hs.Sending/time.Microsecond))
			case metrics.HTTPReqReceiving:
				rec.Trend(s.id, at, int64(hs.Receiving/time.Microsecond))
			}
		}
	}
}

// errorCode is k6's error_code for a failed request (a subset of k6's
// table: 1000 generic, 1050 timeout, 1211/1212 connection refused/reset,
// 1000+status for HTTP statuses ≥ 400).
func errorCode(err error, status int) int {
	if status >= 400 {
		return 1000 + status
	}
	if err == nil {
		return 0
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "timeout"):
		return 1050
	case strings.Contains(msg, "refused"):
		return 1212
	case strings.Contains(msg, "reset"), strings.Contains(msg, "closed by server"):
		return 1220
	case strings.Contains(msg, "no such host"):
		return 1101
	}
	return 1000
}

// response builds k6's Response object.
func (v *vm) response(method, rawURL string, pu *url.URL, status int, err error, t *httpdrv.Timings, hs *metrics.HTTPSample, rp *reqParams) goja.Value {
	h := v.http
	o := v.rt.NewObject()
	o.Set("status", status)
	o.Set("url", rawURL)
	o.Set("proto", t.Proto)
	hdr := v.rt.NewObject()
	var setCookies []*http.Cookie
	for _, line := range h.capture.Headers {
		k, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, val = http.CanonicalHeaderKey(strings.TrimSpace(k)), strings.TrimSpace(val)
		if prev := hdr.Get(k); prev != nil && !goja.IsUndefined(prev) {
			val = prev.String() + ", " + val
		}
		hdr.Set(k, val)
		if k == "Set-Cookie" {
			if c, err := http.ParseSetCookie(strings.TrimSpace(line[strings.IndexByte(line, ':')+1:])); err == nil {
				setCookies = append(setCookies, c)
			}
		}
	}
	if len(setCookies) > 0 {
		h.jar.SetCookies(pu, setCookies)
	}
	o.Set("headers", hdr)
	body := append([]byte(nil), h.capture.Body...)
	switch rp.respType {
	case "none":
		o.Set("body", goja.Null())
	case "binary":
		o.Set("body", v.rt.NewArrayBuffer(body))
	default:
		o.Set("body", string(body))
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	tm := v.rt.NewObject()
	tm.Set("blocked", ms(hs.Blocked))
	tm.Set("connecting", ms(hs.Connecting))
	tm.Set("tls_handshaking", ms(hs.TLSHandshaking))
	tm.Set("sending", ms(hs.Sending))
	tm.Set("waiting", ms(hs.Waiting))
	tm.Set("receiving", ms(hs.Receiving))
	tm.Set("duration", ms(hs.Duration()))
	o.Set("timings", tm)
	if err != nil && status == 0 {
		o.Set("error", err.Error())
		o.Set("error_code", errorCode(err, status))
	} else if status >= 400 {
		o.Set("error", "")
		o.Set("error_code", errorCode(nil, status))
	} else {
		o.Set("error", "")
		o.Set("error_code", 0)
	}
	rq := v.rt.NewObject()
	rq.Set("method", method)
	rq.Set("url", rawURL)
	o.Set("request", rq)
	o.Set("json", func(call goja.FunctionCall) goja.Value {
		var x any
		if err := json.Unmarshal(body, &x); err != nil {
			v.throw("cannot parse the response body as JSON: %v", err)
		}
		if sel := call.Argument(0); !goja.IsUndefined(sel) {
			x = selectPath(x, sel.String())
		}
		return v.rt.ToValue(x)
	})
	cookies := v.rt.NewObject()
	for _, c := range setCookies {
		cookies.Set(c.Name, []map[string]any{{"name": c.Name, "value": c.Value}})
	}
	o.Set("cookies", cookies)
	return o
}

// selectPath follows a dotted path (a.b.0.c) into decoded JSON, as k6's
// json(selector) does for simple selectors.
func selectPath(x any, path string) any {
	for _, part := range strings.Split(path, ".") {
		switch t := x.(type) {
		case map[string]any:
			x = t[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(t) {
				return nil
			}
			x = t[i]
		default:
			return nil
		}
	}
	return x
}

// batch sends requests one after the other on the VU's connections (k6
// sends them in parallel; stampede's VU owns one connection per origin)
// and returns the responses in the same shape (array or object).
func (v *vm) batch(reqs goja.Value) goja.Value {
	o, ok := reqs.(*goja.Object)
	if !ok {
		v.throw("http.batch takes an array or an object of requests")
	}
	one := func(r goja.Value) goja.Value {
		if ro, ok := r.(*goja.Object); ok {
			if ro.ClassName() == "Array" {
				method := strings.ToUpper(ro.Get("0").String())
				return v.request(method, ro.Get("1"), ro.Get("2"), ro.Get("3"))
			}
			method := "GET"
			if m := ro.Get("method"); m != nil && !goja.IsUndefined(m) {
				method = strings.ToUpper(m.String())
			}
			return v.request(method, ro.Get("url"), ro.Get("body"), ro.Get("params"))
		}
		return v.request("GET", r, goja.Undefined(), goja.Undefined())
	}
	if o.ClassName() == "Array" {
		n := int(o.Get("length").ToInteger())
		out := make([]any, n)
		for i := 0; i < n; i++ {
			out[i] = one(o.Get(strconv.Itoa(i)))
		}
		return v.rt.ToValue(out)
	}
	res := v.rt.NewObject()
	keys := o.Keys()
	sort.Strings(keys)
	for _, k := range keys {
		res.Set(k, one(o.Get(k)))
	}
	return res
}

// jarObject is http.cookieJar(): the VU's jar.
func (v *vm) jarObject() goja.Value {
	h := v.httpc()
	o := v.rt.NewObject()
	o.Set("cookiesForURL", func(raw string) goja.Value {
		u, err := url.Parse(raw)
		if err != nil {
			v.throw("bad URL %q", raw)
		}
		out := v.rt.NewObject()
		for _, c := range h.jar.Cookies(u) {
			out.Set(c.Name, []string{c.Value})
		}
		return out
	})
	o.Set("set", func(raw, name, value string) {
		u, err := url.Parse(raw)
		if err != nil {
			v.throw("bad URL %q", raw)
		}
		h.jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value}})
	})
	return o
}

// orUndef maps a missing value (nil, from Get of an absent property) to
// undefined.
func orUndef(v goja.Value) goja.Value {
	if v == nil {
		return goja.Undefined()
	}
	return v
}
