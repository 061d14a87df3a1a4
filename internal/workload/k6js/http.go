package k6js

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

// httpClient is a VU's HTTP state: one stampede HTTP driver per origin
// with the VU's connections to it, a cookie jar and the response
// callback. Sequential requests use one connection per origin; a batch
// opens more (at most batchPerHost), kept for the next batches.
type httpClient struct {
	mu       sync.Mutex // guards conns (a batch's requests run in parallel)
	conns    map[string]*originConn
	jar      *cookiejar.Jar // safe for concurrent use
	expected func(status int) bool
	ex       exchange // the exchange of sequential requests, reused
}

// originConn is one origin's driver and its idle connections.
type originConn struct {
	d    driver.Driver
	mu   sync.Mutex
	idle []timedConn
}

// timedConn is a connection with its timings.
type timedConn struct {
	c     driver.Conn
	timer httpdrv.Timer
}

// get takes an idle connection (ok false: none, dial one).
func (oc *originConn) get() (timedConn, bool) {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	if n := len(oc.idle); n > 0 {
		c := oc.idle[n-1]
		oc.idle = oc.idle[:n-1]
		return c, true
	}
	return timedConn{}, false
}

// put returns a connection for reuse.
func (oc *originConn) put(c timedConn) {
	oc.mu.Lock()
	oc.idle = append(oc.idle, c)
	oc.mu.Unlock()
}

func defaultExpected(status int) bool { return status >= 200 && status < 400 }

func (v *vm) httpc() *httpClient {
	if v.http == nil {
		jar, _ := cookiejar.New(nil)
		v.http = &httpClient{conns: map[string]*originConn{}, jar: jar, expected: defaultExpected}
		v.http.ex.capture = &httpdrv.Capture{}
	}
	return v.http
}

// close releases the VU's connections.
func (h *httpClient) close() {
	for _, oc := range h.conns {
		for _, c := range oc.idle {
			c.c.Close()
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
					hv := ho.Get(hk).String()
					if strings.ContainsAny(hk+hv, "\r\n") {
						v.throw("header %q has a line break", hk)
					}
					rp.headers = append(rp.headers, [2]string{hk, hv})
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

// request performs one k6 HTTP request (following redirects), records
// each response and returns the last one's object.
func (v *vm) request(method string, u, body, params goja.Value) goja.Value {
	if v.inInit {
		v.throw("making HTTP requests in the init context is not supported (k6 neither)")
	}
	u, body, params = orUndef(u), orUndef(body), orUndef(params)
	rp := v.params(params)
	h := v.httpc()
	ex := &h.ex
	ex.rp, ex.method, ex.url = rp, method, u.String()
	ex.body, ex.form = v.bodyBytes(body)
	h.run(v.ctx, v.sh, v.clock(), ex)
	return v.finish(ex)
}

// clock is the run clock (the iteration's; outside of one, the script's).
func (v *vm) clock() metrics.Clock {
	if v.it != nil {
		return v.it.Clock
	}
	return v.sh.clock
}

// exchange is one k6 request with its redirects: what to send and, per
// response (hop), what came back. Filled by httpClient.run, which touches
// no JavaScript value (a batch runs several at once), and read by
// vm.finish on the VU's goroutine.
type exchange struct {
	method, url string
	body        []byte
	form        bool
	rp          reqParams

	capture *httpdrv.Capture // the last response's headers and body
	ext     httpdrv.Ext
	op      driver.Op
	cookies []*http.Cookie // the last response's Set-Cookie
	hops    []hop
	err     error // a bad URL or target: thrown by finish
}

// hop is one request and response of an exchange.
type hop struct {
	method, url string
	start, end  time.Duration // run offsets
	res         driver.Result
	t           httpdrv.Timings
}

// run sends ex's request and follows its redirects (rp.redirects at
// most), storing cookies in the jar. It is safe to call for different
// exchanges at once.
func (h *httpClient) run(ctx context.Context, sh *shared, clock metrics.Clock, ex *exchange) {
	ex.hops, ex.err, ex.cookies = ex.hops[:0], nil, nil
	method, target, body, form := ex.method, ex.url, ex.body, ex.form
	for n := 0; ; n++ {
		pu, err := url.Parse(target)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			ex.err = fmt.Errorf("invalid URL %q: want http:// or https:// with a host", target)
			return
		}
		if err := h.send(ctx, sh, clock, ex, method, target, pu, body, form); err != nil {
			ex.err = err
			return
		}
		last := &ex.hops[len(ex.hops)-1]
		location := locationOf(last.t.Status, last.res.Err, ex.capture.Headers)
		if location == "" || n >= ex.rp.redirects {
			return
		}
		next, err := pu.Parse(location)
		if err != nil {
			return
		}
		target = next.String()
		if method != "GET" && method != "HEAD" {
			if st := last.t.Status; st == 301 || st == 302 || st == 303 {
				method, body, form = "GET", nil, false
			}
		}
	}
}

// origin returns the driver of pu's origin, opening it on first use.
func (h *httpClient) origin(ctx context.Context, sh *shared, pu *url.URL) (*originConn, error) {
	key := pu.Scheme + "://" + pu.Host
	h.mu.Lock()
	defer h.mu.Unlock()
	if oc, ok := h.conns[key]; ok {
		return oc, nil
	}
	d, err := httpdrv.Open(ctx, &url.URL{Scheme: pu.Scheme, Host: pu.Host}, driver.Options{
		Timeout: sh.timeout, InsecureSkipTLSVerify: sh.insecure, UserAgent: sh.userAgent})
	if err != nil {
		return nil, err
	}
	oc := &originConn{d: d}
	h.conns[key] = oc
	return oc, nil
}

// send sends one request of ex on an idle connection of its origin (or a
// new one) and appends its hop.
func (h *httpClient) send(ctx context.Context, sh *shared, clock metrics.Clock, ex *exchange, method, rawURL string, pu *url.URL, body []byte, form bool) error {
	oc, err := h.origin(ctx, sh, pu)
	if err != nil {
		return err
	}
	rp := &ex.rp
	ex.ext = httpdrv.Ext{Method: method, Capture: ex.capture, Timeout: rp.timeout, Headers: ex.ext.Headers[:0]}
	ex.capture.DiscardBody, ex.capture.Head = rp.respType == "none", method == "HEAD"
	hasCT := false
	for _, kv := range rp.headers {
		if strings.EqualFold(kv[0], "content-type") {
			hasCT = true
		}
		ex.ext.Headers = append(ex.ext.Headers, kv[0]+": "+kv[1])
	}
	if form && !hasCT {
		ex.ext.Headers = append(ex.ext.Headers, "Content-Type: application/x-www-form-urlencoded")
	}
	if pu.User != nil {
		pass, _ := pu.User.Password()
		ex.ext.Headers = append(ex.ext.Headers, "Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte(pu.User.Username()+":"+pass)))
	}
	if cs := h.jar.Cookies(pu); len(cs) > 0 {
		parts := make([]string, len(cs))
		for i, c := range cs {
			parts[i] = c.Name + "=" + c.Value
		}
		ex.ext.Headers = append(ex.ext.Headers, "Cookie: "+strings.Join(parts, "; "))
	}
	path := pu.EscapedPath()
	if path == "" {
		path = "/"
	}
	if pu.RawQuery != "" {
		path += "?" + pu.RawQuery
	}
	ex.op = driver.Op{Query: path, Body: body, Ext: &ex.ext}
	hp := hop{method: method, url: rawURL}
	tc, ok := oc.get()
	var dialStart time.Time
	var dial time.Duration // a new connection: dialled here, before Do
	if !ok {
		dialStart = time.Now()
		c, err := oc.d.Conn(ctx)
		dial = time.Since(dialStart)
		if err != nil {
			hp.res = driver.Result{Err: err}
			hp.t = httpdrv.Timings{Start: dialStart, Connecting: dial, Blocked: dial}
		} else {
			tc.c, ok = c, true
			tc.timer, _ = c.(httpdrv.Timer)
		}
	}
	if ok {
		hp.res = tc.c.Do(ctx, &ex.op)
		if tc.timer != nil {
			hp.t = *tc.timer.LastTimings()
			if dial > 0 && hp.t.Connecting == 0 { // the plain HTTP client dials in Conn
				hp.t.Connecting, hp.t.Blocked, hp.t.Start = dial, hp.t.Blocked+dial, dialStart
			}
		}
		if sh.noReuse {
			tc.c.Close()
		} else {
			oc.put(tc)
		}
	}
	hp.end = clock.Now()
	if hp.t.Start.IsZero() {
		hp.t.Start = clock.Wall(hp.end)
	}
	hp.start = hp.t.Start.Sub(clock.Base())
	ex.cookies = ex.cookies[:0]
	for _, line := range ex.capture.Headers {
		if k, val, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "set-cookie") {
			if c, err := http.ParseSetCookie(strings.TrimSpace(val)); err == nil {
				ex.cookies = append(ex.cookies, c)
			}
		}
	}
	if len(ex.cookies) > 0 {
		h.jar.SetCookies(pu, ex.cookies)
	}
	ex.hops = append(ex.hops, hp)
	return nil
}

// finish records every response of ex (on the VU's goroutine) and
// returns the last one's object; a bad URL or target is thrown.
func (v *vm) finish(ex *exchange) goja.Value {
	if ex.err != nil {
		v.throw("%v", ex.err)
	}
	var hs metrics.HTTPSample
	for i := range ex.hops {
		v.record(ex, &ex.hops[i], &hs)
	}
	last := &ex.hops[len(ex.hops)-1]
	return v.response(ex, last, &hs)
}

// record records one response of ex into hs and the metrics.
func (v *vm) record(ex *exchange, hp *hop, hs *metrics.HTTPSample) {
	rp, t, res := &ex.rp, &hp.t, hp.res
	expected := v.http.expected
	if rp.expected != nil {
		expected = rp.expected
	}
	status := t.Status
	isExpected := status != 0 && expected(status)
	if res.Err != nil && res.Status != 0 {
		if isExpected {
			res.Err = nil // an expected status is a success (k6's responseCallback)
		}
	} else if res.Err == nil && !isExpected {
		res.Err = &httpdrv.Status{Code: status}
	}
	hp.res = res
	*hs = metrics.HTTPSample{
		Blocked: t.Blocked, Connecting: t.Connecting, TLSHandshaking: t.TLSHandshaking,
		Sending: t.Sending, Waiting: t.Waiting, Receiving: t.Receiving,
		Sent: t.Sent, Received: t.Received, Status: status, Expected: isExpected, Method: hp.method, Proto: t.Proto,
	}
	clock := v.clock()
	if !t.FirstByte.IsZero() {
		hs.FirstByte = t.FirstByte.Sub(clock.Base())
	}
	if v.it == nil {
		if hs.FirstByte > 0 {
			hs.Receiving = max(hp.end-hs.FirstByte, 0)
		}
		return
	}
	name := hp.url
	if n, ok := rp.tags["name"]; ok {
		name = n
	}
	hs.URL, hs.Name, hs.Group = hp.url, name, v.group
	hs.ErrorCode = httpdrv.ErrorCode(status, res.Err)
	end := v.it.RequestAuditAt(vu.Audit{Label: name, HTTP: hs, HTTPIDs: &v.sh.httpIDs}, hp.start, hp.end, res)
	if len(v.sh.subs) > 0 {
		v.recordHTTPSubs(end, hs, hp.url, name, hp.method, status, hs.Expected, res.Err, rp.tags)
	}
}
