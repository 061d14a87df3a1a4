package k6js

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// httpClient is a VU's HTTP state: one stampede HTTP driver connection
// per origin, a cookie jar and the response callback.
type httpClient struct {
	conns    map[string]*originConn
	jar      *cookiejar.Jar
	expected func(status int) bool
	capture  httpdrv.Capture
	ext      httpdrv.Ext
	op       driver.Op
	hs       metrics.HTTPSample
}

type originConn struct {
	d     driver.Driver
	c     driver.Conn
	timer httpdrv.Timer
}

func defaultExpected(status int) bool { return status >= 200 && status < 400 }

func (v *vm) httpc() *httpClient {
	if v.http == nil {
		jar, _ := cookiejar.New(nil)
		v.http = &httpClient{conns: map[string]*originConn{}, jar: jar, expected: defaultExpected}
	}
	return v.http
}

// close releases the VU's connections.
func (h *httpClient) close() {
	for _, oc := range h.conns {
		if oc.c != nil {
			oc.c.Close()
		}
		oc.d.Close()
	}
}

// httpModule is "k6/http".
func (v *vm) httpModule() goja.Value {
	req := func(method string, hasBody bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			body, params := goja.Undefined(), call.Argument(1)
			if hasBody {
				body, params = call.Argument(1), call.Argument(2)
			}
			return v.request(method, call.Argument(0), body, params)
		}
	}
	return v.newModule("k6/http", map[string]any{
		"get": req("GET", false), "head": req("HEAD", false),
		"post": req("POST", true), "put": req("PUT", true), "patch": req("PATCH", true),
		"del": req("DELETE", true), "options": req("OPTIONS", true),
		"request": func(call goja.FunctionCall) goja.Value {
			return v.request(strings.ToUpper(call.Argument(0).String()), call.Argument(1), call.Argument(2), call.Argument(3))
		},
		"batch":               v.batch,
		"expectedStatuses":    v.expectedStatuses,
		"setResponseCallback": v.setResponseCallback,
		"cookieJar":           func() goja.Value { return v.jarObject() },
	})
}

// expectedStatuses returns a response callback accepting the given
// statuses and {min, max} ranges.
func (v *vm) expectedStatuses(call goja.FunctionCall) goja.Value {
	type rng struct{ min, max int }
	var rs []rng
	for _, a := range call.Arguments {
		if o, ok := a.(*goja.Object); ok {
			rs = append(rs, rng{int(o.Get("min").ToInteger()), int(o.Get("max").ToInteger())})
			continue
		}
		n := int(a.ToInteger())
		rs = append(rs, rng{n, n})
	}
	f := func(status int) bool {
		for _, r := range rs {
			if status >= r.min && status <= r.max {
				return true
			}
		}
		return false
	}
	o := v.rt.NewObject()
	o.Set("__stampede_expected", f)
	return o
}

// callbackOf reads a response callback (from expectedStatuses; null: every
// response is expected).
func (v *vm) callbackOf(cb goja.Value) func(int) bool {
	if goja.IsNull(cb) {
		return func(int) bool { return true }
	}
	if o, ok := cb.(*goja.Object); ok {
		if f, ok := o.Get("__stampede_expected").Export().(func(int) bool); ok {
			return f
		}
	}
	v.throw("the response callback must come from http.expectedStatuses() or be null")
	return nil
}

func (v *vm) setResponseCallback(cb goja.Value) {
	v.httpc().expected = v.callbackOf(cb)
}

// reqParams are k6's request params.
type reqParams struct {
	headers   [][2]string
	tags      map[string]string
	timeout   time.Duration
	redirects int
	respType  string
	expected  func(int) bool
}

func (v *vm) params(p goja.Value) reqParams {
	rp := reqParams{redirects: v.sh.maxRedir, respType: "text", timeout: v.sh.timeout}
	if v.sh.discard {
		rp.respType = "none"
	}
	o, ok := p.(*goja.Object)
	if !ok || goja.IsUndefined(p) || goja.IsNull(p) {
		return rp
	}
	for _, k := range o.Keys() {
		val := o.Get(k)
		switch k {
		case "headers":
			if ho, ok := val.(*goja.Object); ok {
				for _, hk := range ho.Keys() {
					rp.headers = append(rp.headers, [2]string{hk, ho.Get(hk).String()})
				}
			}
		case "tags":
			if to, ok := val.(*goja.Object); ok {
				rp.tags = map[string]string{}
				for _, tk := range to.Keys() {
					rp.tags[tk] = to.Get(tk).String()
				}
			}
		case "timeout":
			rp.timeout = v.durationArg(val)
		case "redirects":
			rp.redirects = int(val.ToInteger())
		case "responseType":
			rp.respType = val.String()
			if rp.respType != "text" && rp.respType != "binary" && rp.respType != "none" {
				v.throw("responseType %q is not supported (text, binary, none)", rp.respType)
			}
		case "auth":
			if val.String() != "basic" {
				v.throw("auth %q is not supported by stampede (basic: user:pass@ in the URL)", val.String())
			}
		case "responseCallback":
			rp.expected = v.callbackOf(val)
		case "cookies", "jar", "compression":
			v.throw("request param %q is not supported by stampede", k)
		default:
			v.throw("request param %q is not supported by stampede", k)
		}
	}
	return rp
}

// durationArg reads a k6 duration: a string like "10s" or ms.
func (v *vm) durationArg(val goja.Value) time.Duration {
	if s, ok := val.Export().(string); ok {
		d, err := time.ParseDuration(s)
		if err != nil {
			v.throw("bad duration %q", s)
		}
		return d
	}
	return time.Duration(val.ToFloat() * float64(time.Millisecond))
}

// bodyBytes renders a request body: a string, an ArrayBuffer, or an object
// sent as a form (application/x-www-form-urlencoded), as k6 does.
func (v *vm) bodyBytes(b goja.Value) ([]byte, bool) {
	if goja.IsUndefined(b) || goja.IsNull(b) {
		return nil, false
	}
	switch x := b.Export().(type) {
	case string:
		return []byte(x), false
	case goja.ArrayBuffer:
		return x.Bytes(), false
	case []byte:
		return x, false
	}
	if o, ok := b.(*goja.Object); ok {
		form := url.Values{}
		for _, k := range o.Keys() {
			form.Set(k, o.Get(k).String())
		}
		return []byte(form.Encode()), true
	}
	return []byte(b.String()), false
}

// request performs one k6 HTTP request (following redirects) and returns
// the response object.
func (v *vm) request(method string, u, body, params goja.Value) goja.Value {
	if v.inInit {
		v.throw("making HTTP requests in the init context is not supported (k6 neither)")
	}
	u, body, params = orUndef(u), orUndef(body), orUndef(params)
	rp := v.params(params)
	b, form := v.bodyBytes(body)
	target := u.String()
	var resp goja.Value
	for hop := 0; ; hop++ {
		r, location := v.do(method, target, b, form, &rp)
		resp = r
		if location == "" || hop >= rp.redirects {
			break
		}
		next, err := url.Parse(target)
		if err == nil {
			next, err = next.Parse(location)
		}
		if err != nil {
			break
		}
		target = next.String()
		if method != "GET" && method != "HEAD" {
			if st := int(r.ToObject(v.rt).Get("status").ToInteger()); st == 301 || st == 302 || st == 303 {
				method, b, form = "GET", nil, false
			}
		}
	}
	return resp
}

// do sends one request; location is the redirect to follow ("" for none).
func (v *vm) do(method, rawURL string, body []byte, form bool, rp *reqParams) (goja.Value, string) {
	h := v.httpc()
	pu, err := url.Parse(rawURL)
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
		v.throw("invalid URL %q: want http:// or https:// with a host", rawURL)
	}
	origin := pu.Scheme + "://" + pu.Host
	oc, ok := h.conns[origin]
	if !ok {
		d, err := httpdrv.Open(v.ctx, &url.URL{Scheme: pu.Scheme, Host: pu.Host}, driver.Options{
			Timeout: v.sh.timeout, InsecureSkipTLSVerify: v.sh.insecure, UserAgent: v.sh.userAgent})
		if err != nil {
			v.throw("%v", err)
		}
		oc = &originConn{d: d}
		h.conns[origin] = oc
	}
	h.ext = httpdrv.Ext{Method: method, Capture: &h.capture, Timeout: rp.timeout}
	h.capture.DiscardBody, h.capture.Head = rp.respType == "none", method == "HEAD"
	hasCT := false
	for _, kv := range rp.headers {
		if strings.ContainsAny(kv[0]+kv[1], "\r\n") {
			v.throw("header %q has a line break", kv[0])
		}
		if strings.EqualFold(kv[0], "content-type") {
			hasCT = true
		}
		h.ext.Headers = append(h.ext.Headers, kv[0]+": "+kv[1])
	}
	if form && !hasCT {
		h.ext.Headers = append(h.ext.Headers, "Content-Type: application/x-www-form-urlencoded")
	}
	if pu.User != nil {
		pass, _ := pu.User.Password()
		h.ext.Headers = append(h.ext.Headers, "Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte(pu.User.Username()+":"+pass)))
	}
	if cs := h.jar.Cookies(pu); len(cs) > 0 {
		parts := make([]string, len(cs))
		for i, c := range cs {
			parts[i] = c.Name + "=" + c.Value
		}
		h.ext.Headers = append(h.ext.Headers, "Cookie: "+strings.Join(parts, "; "))
	}
	path := pu.EscapedPath()
	if path == "" {
		path = "/"
	}
	if pu.RawQuery != "" {
		path += "?" + pu.RawQuery
	}
	h.op = driver.Op{Query: path, Body: body, Ext: &h.ext}
	var res driver.Result
	var t *httpdrv.Timings
	var dialStart time.Time
	var dial time.Duration // a new connection: dialled here, before Do
	if oc.c == nil {
		dialStart = time.Now()
		c, err := oc.d.Conn(v.ctx)
		dial = time.Since(dialStart)
		if err != nil {
			res = driver.Result{Err: err}
			t = &httpdrv.Timings{Start: dialStart, Connecting: dial, Blocked: dial}
		} else {
			oc.c = c
			oc.timer, _ = c.(httpdrv.Timer)
		}
	}
	if oc.c != nil {
		res = oc.c.Do(v.ctx, &h.op)
		if oc.timer != nil {
			t = oc.timer.LastTimings()
			if dial > 0 && t.Connecting == 0 { // the plain HTTP client dials in Conn
				t.Connecting, t.Blocked, t.Start = dial, t.Blocked+dial, dialStart
			}
		}
		if v.sh.noReuse {
			oc.c.Close()
			oc.c = nil
		}
	}
	if t == nil {
		t = &httpdrv.Timings{Start: time.Now()}
	}
	expected := h.expected
	if rp.expected != nil {
		expected = rp.expected
	}
	status := t.Status
	if res.Err != nil && status == 0 {
		status = 0
	}
	isExpected := status != 0 && expected(status)
	if res.Err != nil && res.Status != 0 {
		if isExpected {
			res.Err = nil // an expected status is a success (k6's responseCallback)
		}
	} else if res.Err == nil && !isExpected {
		res.Err = &httpdrv.Status{Code: status}
	}
	h.hs = metrics.HTTPSample{
		Blocked: t.Blocked, Connecting: t.Connecting, TLSHandshaking: t.TLSHandshaking,
		Sending: t.Sending, Waiting: t.Waiting, Receiving: t.Receiving,
		Sent: t.Sent, Received: t.Received, Status: status, Expected: isExpected, Method: method, Proto: t.Proto,
	}
	if v.it != nil { // setup() and teardown() record nothing
		base := v.it.Clock.Base()
		start := t.Start.Sub(base)
		if !t.FirstByte.IsZero() {
			h.hs.FirstByte = t.FirstByte.Sub(base)
		}
		name := rawURL
		if n, ok := rp.tags["name"]; ok {
			name = n
		}
		end := v.it.RequestHTTP(name, start, res, &v.sh.httpIDs, &h.hs)
		if len(v.sh.subs) > 0 {
			v.recordHTTPSubs(end, rawURL, name, method, status, isExpected, res.Err, rp.tags)
		}
	} else if !t.FirstByte.IsZero() {
		h.hs.Receiving = time.Since(t.FirstByte)
	}
	return v.response(method, rawURL, pu, status, res.Err, t, &h.hs, rp), v.location(status, res.Err)
}

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
