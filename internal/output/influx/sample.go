package influx

import (
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// Per-sample points, as k6's InfluxDB output writes them: one point per
// metric per request, iteration and check, so that panels that count
// points (count("value") of errors or checks per second) and take the
// max or a percentile of raw values read the same figures as from k6:
//
//	http_reqs, http_req_duration, http_req_blocked, http_req_connecting,
//	http_req_tls_handshaking, http_req_sending, http_req_waiting,
//	http_req_receiving (ms), http_req_failed (1 failed, 0 not),
//	data_sent, data_received (bytes)     tags error_code, expected_response, method, name,
//	                                     proto, scenario, status and the run's tags; field url
//	errors (1)                           each failed request and failed iteration
//	iterations (1), iteration_duration (ms)
//	checks (1 passed, 0 failed)          tag check
//
// Each VU encodes its points into its own buffer and hands it to the
// writer goroutine when it holds sampleHandoff bytes or its oldest point
// is a second old; a full queue drops the buffer and counts its lines.
// Timestamps are in ns: the sample's µs, with the VU's number modulo
// 1000 in the last three digits, so that two VUs' points of one series
// never share a timestamp (InfluxDB keeps only the last of such points).

// sampleHandoff is the size at which a VU hands its buffer over.
const sampleHandoff = 32 << 10

// perSecondSkips are the measurements written per sample, which the
// per-second lines leave out.
var perSecondSkips = map[string]bool{
	metrics.HTTPReqs: true, metrics.HTTPReqFailed: true, metrics.HTTPReqFailed + metrics.RateTotalSuffix: true,
	metrics.DataSent: true, metrics.DataReceived: true,
	metrics.Iterations: true, metrics.Checks: true, metrics.Checks + metrics.RateTotalSuffix: true, metrics.Errors: true,
}

// skipPerSecond tells whether the per-second lines leave out counter name.
func skipPerSecond(name string) bool {
	if perSecondSkips[name] {
		return true
	}
	_, isCheck := metrics.CheckName(name)
	if !isCheck {
		if base, ok := cutTotal(name); ok {
			_, isCheck = metrics.CheckName(base)
		}
	}
	return isCheck
}

func cutTotal(name string) (string, bool) {
	const s = metrics.RateTotalSuffix
	if len(name) > len(s) && name[len(name)-len(s):] == s {
		return name[:len(name)-len(s)], true
	}
	return name, false
}

var (
	_ reqlog.Log         = (*Output)(nil)
	_ reqlog.EventWriter = (*sampleWriter)(nil)
)

// Writer returns the per-sample writer of one VU (reqlog.Log).
func (o *Output) Writer(scenario string) reqlog.Writer {
	vu := o.writers.Add(1) - 1
	w := &sampleWriter{o: o, scenario: scenario, nudge: vu % 1000}
	for k, v := range o.cfg.Tags {
		if k != "scenario" && v != "" {
			w.base = append(w.base, tag{k, sanitize(v)})
		}
	}
	w.base = append(w.base, tag{"scenario", sanitize(scenario)})
	sort.Slice(w.base, func(i, j int) bool { return w.base[i].k < w.base[j].k })
	return w
}

// sampleWriter encodes one VU's points. Its methods must not be called
// concurrently.
type sampleWriter struct {
	o        *Output
	scenario string
	base     []tag // run tags and scenario, sorted
	nudge    int64
	buf      []byte // encoded lines not handed over yet
	tagsec   []byte // ",k=v,..." of the current sample
	urlField []byte // `,url="..."` of the current sample, or empty
	lines    int64
	first    time.Time // of the oldest buffered point
	lastUS   int64
	tags     []tag
	own      []tag
	nums     map[int]string
}

func (w *sampleWriter) stamp(t time.Time) int64 {
	us := t.UnixMicro()
	if us <= w.lastUS {
		us = w.lastUS + 1
	}
	w.lastUS = us
	if w.lines == 0 {
		w.first = t
	}
	return us*1000 + w.nudge
}

// setTags encodes tags (sorted, sanitized) as the tag section of the
// next points, and url as their url field ("" for none): once per
// request for its eleven points.
func (w *sampleWriter) setTags(tags []tag, url string) {
	b := w.tagsec[:0]
	for _, tg := range tags {
		b = append(b, ',')
		b = appendEscaped(b, tg.k)
		b = append(b, '=')
		b = appendEscaped(b, tg.v)
	}
	w.tagsec = b
	w.urlField = w.urlField[:0]
	if url != "" {
		w.urlField = append(w.urlField, `,url="`...)
		for i := 0; i < len(url); i++ {
			if c := url[i]; c == '"' || c == '\\' {
				w.urlField = append(w.urlField, '\\')
			}
			w.urlField = append(w.urlField, url[i])
		}
		w.urlField = append(w.urlField, '"')
	}
}

// point appends one line: measurement (one of k6's names, nothing to
// escape), the tag section, value and url fields, ts in ns.
func (w *sampleWriter) point(measurement string, v float64, ts int64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		w.o.sampleFailed.Add(1)
		w.o.sampleLines.Add(1)
		return
	}
	b := append(w.buf, measurement...)
	b = append(b, w.tagsec...)
	b = append(b, " value="...)
	b = strconv.AppendFloat(b, v, 'g', -1, 64)
	b = append(b, w.urlField...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, ts, 10)
	w.buf = append(b, '\n')
	w.lines++
}

// appendEscaped appends a tag key or value with line protocol's escapes
// (comma, equals sign and space).
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ',', '=', ' ':
			b = append(b, '\\', c)
		default:
			b = append(b, c)
		}
	}
	return b
}

// httpTags are the base tags and an HTTP sample's, in key order (both
// lists are sorted: merged without sorting, on the hot path).
func (w *sampleWriter) httpTags(h *metrics.HTTPSample, name string) []tag {
	own := w.own[:0]
	if h.ErrorCode != 0 {
		own = append(own, tag{"error_code", w.itoa(h.ErrorCode)})
	}
	exp := "false"
	if h.Expected {
		exp = "true"
	}
	own = append(own, tag{"expected_response", exp})
	if h.Group != "" { // k6 scripts' groups; influx leaves out empty tags
		own = append(own, tag{"group", sanitize(h.Group)})
	}
	own = append(own, tag{"method", sanitize(h.Method)}, tag{"name", sanitize(name)})
	if h.Proto != "" {
		own = append(own, tag{"proto", h.Proto})
	}
	if h.Status != 0 {
		own = append(own, tag{"status", w.itoa(h.Status)})
	}
	w.own = own
	w.tags = mergeTags(w.tags[:0], own, w.base)
	return w.tags
}

// itoa formats small numbers (statuses, error codes) once per writer.
func (w *sampleWriter) itoa(n int) string {
	s, ok := w.nums[n]
	if !ok {
		if w.nums == nil {
			w.nums = map[int]string{}
		}
		s = strconv.Itoa(n)
		if len(w.nums) < 256 {
			w.nums[n] = s
		}
	}
	return s
}

// mergeTags appends the sorted lists a and b to dst in key order.
func mergeTags(dst, a, b []tag) []tag {
	for len(a) > 0 && len(b) > 0 {
		if a[0].k <= b[0].k {
			dst, a = append(dst, a[0]), a[1:]
		} else {
			dst, b = append(dst, b[0]), b[1:]
		}
	}
	return append(append(dst, a...), b...)
}

// Write encodes r's points (reqlog.Writer).
func (w *sampleWriter) Write(r reqlog.Record) {
	ts := w.stamp(r.Time)
	if h := r.HTTP; h != nil {
		url := h.URL
		if url == "" {
			url = r.Query
		}
		name := h.NameOr()
		if name == "" {
			name = r.Query
		}
		w.setTags(w.httpTags(h, name), url)
		failed := 1.0
		if h.Expected {
			failed = 0
		}
		w.point(metrics.HTTPReqs, 1, ts)
		w.point(metrics.HTTPReqDuration, msOf(h.Duration()), ts)
		w.point(metrics.HTTPReqBlocked, msOf(h.Blocked), ts)
		w.point(metrics.HTTPReqConnecting, msOf(h.Connecting), ts)
		w.point(metrics.HTTPReqTLS, msOf(h.TLSHandshaking), ts)
		w.point(metrics.HTTPReqSending, msOf(h.Sending), ts)
		w.point(metrics.HTTPReqWaiting, msOf(h.Waiting), ts)
		w.point(metrics.HTTPReqReceiving, msOf(h.Receiving), ts)
		w.point(metrics.HTTPReqFailed, failed, ts)
		w.point(metrics.DataSent, float64(h.Sent), ts)
		w.point(metrics.DataReceived, float64(h.Received), ts)
		if !r.OK {
			w.point(metrics.Errors, 1, ts)
		}
	} else if !r.OK {
		w.setTags(w.base, "")
		w.point(metrics.Errors, 1, ts)
	}
	w.maybeHandoff(r.Time)
}

// Iteration implements reqlog.EventWriter.
func (w *sampleWriter) Iteration(at time.Time, d time.Duration, failed bool) {
	ts := w.stamp(at)
	w.setTags(w.base, "")
	w.point(metrics.Iterations, 1, ts)
	w.point(metrics.IterationDuration, msOf(d), ts)
	if failed {
		w.point(metrics.Errors, 1, ts)
	}
	w.maybeHandoff(at)
}

// Check implements reqlog.EventWriter.
func (w *sampleWriter) Check(at time.Time, id metrics.ID, ok bool) {
	ts := w.stamp(at)
	tags := w.base
	if name := w.o.checkName(id); name != "" {
		w.own = append(w.own[:0], tag{"check", sanitize(name)})
		w.tags = mergeTags(w.tags[:0], w.own, w.base)
		tags = w.tags
	}
	w.setTags(tags, "")
	v := 0.0
	if ok {
		v = 1
	}
	w.point(metrics.Checks, v, ts)
	w.maybeHandoff(at)
}

func (w *sampleWriter) maybeHandoff(now time.Time) {
	if len(w.buf) >= sampleHandoff || now.Sub(w.first) >= time.Second {
		w.handoff()
	}
}

// handoff queues the buffer without blocking; a full queue drops it and
// counts its lines.
func (w *sampleWriter) handoff() {
	if w.lines == 0 {
		return
	}
	w.o.sampleLines.Add(w.lines)
	c := sampleChunk{b: w.buf, n: w.lines}
	w.buf, w.lines = w.o.getSampleBuf(), 0
	w.o.closeMu.RLock()
	defer w.o.closeMu.RUnlock()
	if w.o.closed {
		w.o.sampleQueueFull.Add(c.n)
		return
	}
	select {
	case w.o.chunks <- c:
	default:
		w.o.sampleQueueFull.Add(c.n)
	}
}

// Close hands over what is buffered (reqlog.Writer).
func (w *sampleWriter) Close() error {
	w.handoff()
	return nil
}

// sampleChunk is a VU's buffer of n encoded lines.
type sampleChunk struct {
	b []byte
	n int64
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (o *Output) checkName(id metrics.ID) string {
	reg := o.cfg.Registry
	if id == 0 || reg == nil || int(id) >= reg.Len() {
		return ""
	}
	n, _ := metrics.CheckName(reg.Def(id).Name)
	return n
}

// sampleBatchLines is the smallest write once per-sample points flow.
const sampleBatchLines = 20000

// sampleQueue is the number of VU buffers (of up to sampleHandoff bytes)
// that may wait for the writer goroutine: the memory of per-sample points
// is bounded by it, plus one buffer per VU.
const sampleQueue = 2048

// getSampleBuf returns a recycled VU buffer, or nil (append allocates).
func (o *Output) getSampleBuf() []byte {
	select {
	case b := <-o.freeSample:
		return b[:0]
	default:
		return nil
	}
}
