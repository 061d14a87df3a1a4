package k6js

import (
	"encoding/base64"
	"net/http/cookiejar"
	"net/url"
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
