package k6js

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// locationOf is the Location header of a redirect response ("" when
// there is none to follow).
func locationOf(status int, err error, headers []string) string {
	if status < 300 || status >= 400 || status == 304 {
		return ""
	}
	for _, hl := range headers {
		if k, val, ok := strings.Cut(hl, ":"); ok && strings.EqualFold(k, "location") {
			return strings.TrimSpace(val)
		}
	}
	return ""
}

// recordHTTPSubs records the tagged http_* submetrics thresholds ask for.
func (v *vm) recordHTTPSubs(at time.Duration, hs *metrics.HTTPSample, rawURL, name, method string, status int, expected bool, err error, extra map[string]string) {
	tags := v.tagsOf(goja.Undefined())
	for k, val := range extra {
		tags[k] = val
	}
	tags["url"], tags["name"], tags["method"] = rawURL, name, method
	tags["status"] = strconv.Itoa(status)
	tags["expected_response"] = strconv.FormatBool(expected)
	if err != nil && status == 0 {
		tags["error_code"] = strconv.Itoa(httpdrv.ErrorCode(status, err))
	}
	rec := v.it.Rec
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

// response builds k6's Response object of hop hp, the last of ex.
func (v *vm) response(ex *exchange, hp *hop, hs *metrics.HTTPSample) goja.Value {
	rp, t, status, err := &ex.rp, &hp.t, hp.t.Status, hp.res.Err
	o := v.rt.NewObject()
	o.Set("status", status)
	o.Set("url", hp.url)
	o.Set("proto", t.Proto)
	hdr := v.rt.NewObject()
	for _, line := range ex.capture.Headers {
		k, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, val = http.CanonicalHeaderKey(strings.TrimSpace(k)), strings.TrimSpace(val)
		if prev := hdr.Get(k); prev != nil && !goja.IsUndefined(prev) {
			val = prev.String() + ", " + val
		}
		hdr.Set(k, val)
	}
	o.Set("headers", hdr)
	body := append([]byte(nil), ex.capture.Body...)
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
		o.Set("error_code", httpdrv.ErrorCode(status, err))
	} else if status >= 400 {
		o.Set("error", "")
		o.Set("error_code", httpdrv.ErrorCode(status, nil))
	} else {
		o.Set("error", "")
		o.Set("error_code", 0)
	}
	rq := v.rt.NewObject()
	rq.Set("method", hp.method)
	rq.Set("url", hp.url)
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
	for _, c := range ex.cookies {
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

// batch sends its requests in parallel, as k6 does: at most
// options.batch at once (default 20), at most options.batchPerHost to
// one host (default 6), each on a connection of its own (kept for the
// next batch). Every response is recorded as a request of its own; the
// responses come back in the same shape (array or object).
func (v *vm) batch(reqs goja.Value) goja.Value {
	if v.inInit {
		v.throw("making HTTP requests in the init context is not supported (k6 neither)")
	}
	o, ok := reqs.(*goja.Object)
	if !ok {
		v.throw("http.batch takes an array or an object of requests")
	}
	one := func(r goja.Value) *exchange {
		method, u, body, params := "GET", r, goja.Undefined(), goja.Undefined()
		if ro, ok := r.(*goja.Object); ok {
			if ro.ClassName() == "Array" {
				method, u, body, params = strings.ToUpper(ro.Get("0").String()), ro.Get("1"), ro.Get("2"), ro.Get("3")
			} else {
				if m := ro.Get("method"); m != nil && !goja.IsUndefined(m) {
					method = strings.ToUpper(m.String())
				}
				u, body, params = ro.Get("url"), ro.Get("body"), ro.Get("params")
			}
		}
		u, body, params = orUndef(u), orUndef(body), orUndef(params)
		rp := v.params(params)
		ex := &exchange{rp: rp, method: method, url: u.String(), capture: &httpdrv.Capture{}}
		ex.body, ex.form = v.bodyBytes(body)
		return ex
	}
	var keys []string
	var exs []*exchange
	if o.ClassName() == "Array" {
		n := int(o.Get("length").ToInteger())
		for i := 0; i < n; i++ {
			exs = append(exs, one(o.Get(strconv.Itoa(i))))
		}
	} else {
		keys = o.Keys()
		sort.Strings(keys)
		for _, k := range keys {
			exs = append(exs, one(o.Get(k)))
		}
	}
	v.runBatch(exs)
	if keys == nil {
		out := make([]any, len(exs))
		for i, ex := range exs {
			out[i] = v.finish(ex)
		}
		return v.rt.ToValue(out)
	}
	res := v.rt.NewObject()
	for i, k := range keys {
		res.Set(k, v.finish(exs[i]))
	}
	return res
}

// runBatch runs the exchanges in parallel within the batch limits.
func (v *vm) runBatch(exs []*exchange) {
	h, sh, clock, ctx := v.httpc(), v.sh, v.clock(), v.ctx
	total := make(chan struct{}, max(sh.batch, 1))
	perHost := map[string]chan struct{}{}
	var wg sync.WaitGroup
	for _, ex := range exs {
		host := ex.url
		if pu, err := url.Parse(ex.url); err == nil {
			host = pu.Host
		}
		hc, ok := perHost[host]
		if !ok {
			hc = make(chan struct{}, max(sh.batchPerHost, 1))
			perHost[host] = hc
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc <- struct{}{}
			total <- struct{}{}
			h.run(ctx, sh, clock, ex)
			<-total
			<-hc
		}()
	}
	wg.Wait()
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
