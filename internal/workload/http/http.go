// Package http is the "http" family: http.Request sends one templated
// HTTP request per iteration, so stampede's engine can be compared with
// wrk, vegeta and k6 on the same server.
package http

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/redact"
	"github.com/stampede-bench/stampede/vu"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Family is the "http" family.
type Family struct {
	opts Options
	// drivers open the family's targets: HTTP and HTTPS.
	drivers *driver.Registry
}

var (
	_ workload.Family     = (*Family)(nil)
	_ workload.FlagBinder = (*Family)(nil)
)

// New returns the http family with options opts (see DefaultOptions).
func New(opts Options) *Family {
	r := driver.NewRegistry()
	httpdrv.Register(r)
	return &Family{opts: opts, drivers: r}
}

// Name implements workload.Family.
func (*Family) Name() string { return "http" }

// Scenarios implements workload.Family.
func (*Family) Scenarios() []workload.Info {
	return []workload.Info{{Name: "http.Request", Description: "one HTTP request per iteration (--method, --path, --header, --body, --params)"}}
}

// Open implements workload.Family.
func (f *Family) Open(ctx context.Context, env *workload.Env, names []string) (*workload.Opened, error) {
	if env.Target == "" {
		return nil, usage.Errorf("http.Request needs --target http://HOST:PORT/PATH")
	}
	if raw, err := url.Parse(env.Target); err == nil && raw.Scheme != "" && !strings.EqualFold(raw.Scheme, "http") && !strings.EqualFold(raw.Scheme, "https") {
		return nil, usage.Errorf("http.Request needs an http:// or https:// target, not %s://", raw.Scheme)
	}
	u, err := f.drivers.ParseTarget(env.Target)
	if err != nil {
		return nil, usage.Errorf("%v", err)
	}
	path := f.opts.Path
	if path == "" {
		path = u.RequestURI()
	}
	var params *table
	if f.opts.ParamsFile != "" {
		if params, err = readTable(ctx, f.opts.ParamsFile); err != nil {
			return nil, usage.Errorf("--params: %v", err)
		}
	}
	lookup := func(k string) (string, bool) {
		if v, ok := env.Vars[k]; ok {
			return v, true
		}
		if env.Getenv != nil {
			if v := env.Getenv(k); v != "" {
				return v, true
			}
		}
		return "", false
	}
	headers := make([]string, len(f.opts.Headers))
	body := f.opts.Body
	if path, err = expandEnv(path, lookup); err == nil {
		if body, err = expandEnv(f.opts.Body, lookup); err == nil {
			for i, h := range f.opts.Headers {
				if headers[i], err = expandEnv(h, lookup); err != nil {
					break
				}
			}
		}
	}
	if err != nil {
		return nil, usage.Errorf("%v", err)
	}
	if err := f.opts.Validate(); err != nil {
		return nil, err
	}
	tmpl, err := compileRequest(f.opts.Method, path, headers, body, params)
	if err != nil {
		return nil, usage.Errorf("%v", err)
	}
	drv, err := f.drivers.Open(ctx, u, driver.Options{PoolSize: env.MaxVUs, Timeout: env.Timeout,
		InsecureSkipTLSVerify: env.InsecureSkipTLSVerify, UserAgent: env.UserAgent})
	if err != nil {
		return nil, usage.Errorf("%v", err)
	}
	probe, err := drv.Conn(ctx)
	if err != nil {
		return nil, usage.Errorf("target %s unreachable: %v", redact.ParsedURL(u), err)
	}
	probe.Close()
	sc := &scenario{drv: drv, tmpl: tmpl, expect: f.opts.ExpectStatus, origin: u.Scheme + "://" + u.Host, noLoop: f.opts.Goroutines, static: tmpl.static()}
	if d, ok := drv.(*httpdrv.Driver); ok && sc.static != nil {
		if err := d.Prepare(sc.static); err != nil {
			return nil, usage.Errorf("%v", err)
		}
	}
	sc.name = sc.origin + redactPath(tmpl.path.source())
	if env.Metrics != nil {
		ids, err := metrics.RegisterHTTP(env.Metrics)
		if err != nil {
			return nil, err
		}
		sc.http = &ids
	}
	if f.opts.ExpectStatus != 0 && env.Metrics != nil {
		sc.checkID = env.Metrics.MustAdd(metrics.CheckMetric(fmt.Sprintf("status is %d", f.opts.ExpectStatus)))
	}
	if redacted := redactPath(path); redacted != path {
		sc.label = redacted // the per-request log never holds a secret
	}
	if sc.static != nil {
		label := sc.static.Query
		if sc.label != "" {
			label = sc.label
		}
		sc.staticURL = sc.origin + label
	}
	return &workload.Opened{
		Scenarios: map[string]vu.Scenario{"http.Request": sc},
		Target:    redact.ParsedURL(u),
		Close:     drv.Close,
	}, nil
}

type scenario struct {
	drv    driver.Driver
	tmpl   *request
	expect int
	label  string // fixed per-request label when the path holds a secret
	// origin is scheme://host of the target (k6's url tag is the full
	// URL); name is k6's name tag: the URL of the path template, with
	// its {{column}} placeholders, so that tagged series stay few.
	origin, name string
	// checkID is the "status is N" check rate (0 without --expect-status).
	checkID metrics.ID
	// http are k6's HTTP metrics (nil without a registry).
	http *metrics.HTTPIDs
	// noLoop keeps every VU in a goroutine of its own (--http-goroutines).
	noLoop bool
	// static is the request of every iteration when it has no
	// placeholders (nil: each iteration renders its own), shared by
	// the VUs and prepared by the driver once (httpdrv.Driver.Prepare).
	static *driver.Op
	// staticURL is the url tag of static (see url).
	staticURL string
}

// NewVU makes a VU whose connection is dialled by its first request, as
// in k6 (Open dialled the target once to fail fast), and made when first
// needed: by the VU's first iteration in a goroutine of its own, or by the
// event loop that adopts the VU (a run of 5,000 VUs neither makes 5,000
// sockets nor 5,000 connection states only for a loop to replace them).
func (s *scenario) NewVU(ctx context.Context, id int) (vu.VU, error) {
	v := &httpVU{s: s, row: id, op: s.static}
	if _, ok := s.drv.(*httpdrv.Driver); !ok {
		c, err := s.drv.Conn(ctx)
		if err != nil {
			return nil, err
		}
		v.setConn(c)
	}
	return v, nil
}

// setConn makes c the VU's connection.
func (v *httpVU) setConn(c driver.Conn) {
	v.conn = c
	v.timer, _ = c.(httpdrv.Timer)
}

// httpVU is a VU of http.Request. What only some VUs need is made when
// first needed: the buffer a templated request renders into, the k6
// sample of a VU that runs in a goroutine of its own (a VU in a loop
// records into the loop's), so that 5,000 VUs of a static request in
// loops hold little each.
type httpVU struct {
	conn driver.Conn // nil until its first iteration, or in a loop (lc)
	s    *scenario
	op   *driver.Op // the static request (nil: render one per iteration)
	row  int
	buf  *opBuf
	// timer gives the driver's phase timings.
	timer httpdrv.Timer
	hs    *metrics.HTTPSample
	// lc is the VU's connection when it runs in a loop (loop.go).
	lc *httpdrv.LoopConn
}

func (v *httpVU) Iterate(ctx context.Context, it *vu.Iter) error {
	if v.conn == nil {
		v.setConn(v.s.drv.(*httpdrv.Driver).LazyConn())
	}
	op := v.nextOp()
	var start time.Duration
	if v.timer == nil || v.s.http == nil {
		start = it.Now()
	}
	res := v.conn.Do(ctx, op)
	if v.hs == nil {
		v.hs = &metrics.HTTPSample{}
	}
	v.s.record(it, op, start, -1, res, v.timer, v.hs)
	return nil
}

// nextOp is the request of the VU's next iteration.
func (v *httpVU) nextOp() *driver.Op {
	if v.op != nil {
		return v.op
	}
	if v.buf == nil {
		v.buf = &opBuf{}
	}
	op := v.s.tmpl.render(v.buf, v.row)
	v.row++
	return op
}

// record records the request op that ended with res at end (a run
// offset; < 0: now): with timer (the connection's phase timings) as k6's
// HTTP metrics (in hs, reused), timed from the request's own start;
// without, as a request from start.
func (s *scenario) record(it *vu.Iter, op *driver.Op, start, end time.Duration, res driver.Result, timer httpdrv.Timer, hs *metrics.HTTPSample) {
	if end < 0 {
		end = it.Now()
	}
	label := op.Query
	if s.label != "" {
		label = s.label
	}
	if timer == nil || s.http == nil {
		it.RequestAuditAt(vu.Audit{Label: label}, start, end, res)
	} else {
		t := timer.LastTimings()
		base := it.Clock.Base()
		start = t.Start.Sub(base) // the driver read the clock as the request began
		*hs = metrics.HTTPSample{
			Blocked: t.Blocked, Connecting: t.Connecting, TLSHandshaking: t.TLSHandshaking,
			Sending: t.Sending, Waiting: t.Waiting, Receiving: t.Receiving,
			Sent: t.Sent, Received: t.Received, Status: t.Status,
			Expected: s.expected(t.Status), Method: s.tmpl.method, Proto: t.Proto,
			URL: s.url(op, label), Name: s.name, ErrorCode: httpdrv.ErrorCode(res.Status, res.Err),
		}
		if !t.FirstByte.IsZero() {
			hs.FirstByte = t.FirstByte.Sub(base)
		}
		if hs.Expected && res.Err != nil && isStatus(res.Err) {
			res.Err = nil // --expect-status names this status: a success
		}
		it.RequestAuditAt(vu.Audit{Label: label, HTTP: hs, HTTPIDs: s.http}, start, end, res)
	}
	if s.expect != 0 {
		ok := res.Status == s.expect
		if s.checkID != 0 {
			it.CheckAs(s.checkID, ok)
		} else {
			it.Check(ok)
		}
	}
}

func (v *httpVU) Close() error {
	switch {
	case v.lc != nil:
		return v.lc.Close()
	case v.conn != nil:
		return v.conn.Close()
	}
	return nil
}

// url is k6's url tag of request op labelled label (its path), made once
// for a scenario whose request never changes.
func (s *scenario) url(op *driver.Op, label string) string {
	if op != s.static || op == nil {
		return s.origin + label
	}
	return s.staticURL
}

// expected is k6's expected_response: the status --expect-status names, or
// by default any status from 200 to 399 (k6's default response callback).
func (s *scenario) expected(status int) bool {
	if s.expect != 0 {
		return status == s.expect
	}
	return status >= 200 && status < 400
}

// request is a compiled request template.
type request struct {
	method  string
	path    tmpl
	headers []tmpl
	body    tmpl
	params  *table
}

type opBuf struct {
	op      driver.Op
	ext     httpdrv.Ext
	path    []byte
	body    []byte
	headers [][]byte
}

func compileRequest(method, path string, headers []string, body string, params *table) (*request, error) {
	r := &request{method: strings.ToUpper(method), params: params}
	var err error
	if r.path, err = compile(path, params); err != nil {
		return nil, fmt.Errorf("--path: %w", err)
	}
	if !strings.HasPrefix(path, "/") {
		return nil, fmt.Errorf("--path %q must start with /", path)
	}
	for _, h := range headers {
		if !strings.Contains(h, ":") {
			return nil, fmt.Errorf("--header %q: want 'Name: value'", h)
		}
		t, err := compile(h, params)
		if err != nil {
			return nil, fmt.Errorf("--header: %w", err)
		}
		r.headers = append(r.headers, t)
	}
	if r.body, err = compile(body, params); err != nil {
		return nil, fmt.Errorf("--body: %w", err)
	}
	// Checked once the environment is filled in: a placeholder's value is
	// percent-encoded when rendered, so only the text around it can break
	// the request line or smuggle a header in.
	if err := httpdrv.CheckMethod(r.method); err != nil {
		return nil, fmt.Errorf("--%w", err)
	}
	if err := httpdrv.CheckTarget(r.path.literal()); err != nil {
		return nil, fmt.Errorf("--%w", err)
	}
	for _, h := range r.headers {
		if err := httpdrv.CheckHeader(h.literal()); err != nil {
			return nil, fmt.Errorf("--%w", err)
		}
	}
	return r, nil
}

// static returns the one operation of a template without placeholders, or
// nil when each iteration renders its own.
func (r *request) static() *driver.Op {
	if !r.path.isStatic() || !r.body.isStatic() {
		return nil
	}
	ext := &httpdrv.Ext{Method: r.method}
	for _, h := range r.headers {
		if !h.isStatic() {
			return nil
		}
		ext.Headers = append(ext.Headers, h.text())
	}
	return &driver.Op{Query: r.path.text(), Body: []byte(r.body.text()), Ext: ext}
}

// render fills the templates with row (modulo the table) into buf.
func (r *request) render(buf *opBuf, row int) *driver.Op {
	var rec []string
	if r.params != nil {
		rec = r.params.rows[row%len(r.params.rows)]
	}
	buf.path = r.path.appendTo(buf.path[:0], rec)
	buf.body = r.body.appendTo(buf.body[:0], rec)
	buf.ext.Method = r.method
	buf.ext.Headers = buf.ext.Headers[:0]
	for i, h := range r.headers {
		if len(buf.headers) <= i {
			buf.headers = append(buf.headers, nil)
		}
		buf.headers[i] = h.appendTo(buf.headers[i][:0], rec)
		buf.ext.Headers = append(buf.ext.Headers, string(buf.headers[i]))
	}
	buf.op = driver.Op{Query: string(buf.path), Body: buf.body, Ext: &buf.ext}
	return &buf.op
}

// tmpl is text with {{column}} placeholders resolved to column indexes.
type tmpl struct {
	parts []string // literal parts, len(cols)+1
	cols  []int
	names []string // the placeholders' column names, as written
}

func compile(s string, params *table) (tmpl, error) {
	var t tmpl
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			t.parts = append(t.parts, s)
			return t, nil
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return t, fmt.Errorf("unclosed {{ in %q", s)
		}
		name := strings.TrimSpace(s[i+2 : i+j])
		if params == nil {
			return t, fmt.Errorf("placeholder {{%s}} needs --params FILE", name)
		}
		col, ok := params.index[name]
		if !ok {
			return t, fmt.Errorf("placeholder {{%s}}: no such column in --params (columns: %s)", name, strings.Join(params.header, ", "))
		}
		t.parts = append(t.parts, s[:i])
		t.cols = append(t.cols, col)
		t.names = append(t.names, name)
		s = s[i+j+2:]
	}
}

func (t tmpl) isStatic() bool { return len(t.cols) == 0 }

// source is the template as written, placeholders included.
func (t tmpl) source() string {
	var b strings.Builder
	for i, p := range t.parts {
		b.WriteString(p)
		if i < len(t.cols) {
			b.WriteString("{{" + t.names[i] + "}}")
		}
	}
	return b.String()
}
func (t tmpl) text() string { return strings.Join(t.parts, "") }

// literal is the text with each placeholder as "x", for the checks.
func (t tmpl) literal() string { return strings.Join(t.parts, "x") }

func (t tmpl) appendTo(b []byte, rec []string) []byte {
	for i, p := range t.parts {
		b = append(b, p...)
		if i < len(t.cols) {
			b = append(b, url.PathEscape(rec[t.cols[i]])...)
		}
	}
	return b
}

// redactPath hides secret-looking query parameters (token, password, key,
// ...) of a request path.
func redactPath(path string) string {
	u, err := url.Parse(path)
	if err != nil || u.RawQuery == "" {
		return path
	}
	return redact.ParsedURL(u)
}

// isStatus reports whether err is an unexpected-status error (apart, so
// that the successful path allocates nothing for errors.As's target).
func isStatus(err error) bool {
	var st *httpdrv.Status
	return errors.As(err, &st)
}
