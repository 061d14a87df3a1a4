package promrw

import (
	"strconv"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
	"github.com/stampede-bench/stampede/metric"
)

// k6's HTTP metrics with k6's system tags. Each HTTP request record
// (reqlog) is folded into the series of its tag set, as k6's
// remote-write output keeps one sink per time series:
//
//	k6_http_reqs_total, k6_data_sent_total, k6_data_received_total
//	k6_http_req_failed_rate                              the fraction so far
//	k6_http_req_{duration,blocked,connecting,tls_handshaking,sending,waiting,receiving}_STAT
//	                                                     seconds; STAT p99 p95 p90 med avg min max count sum
//
// labelled error_code (when not 0), expected_response, method, name,
// proto, scenario, status, url and the run's tags. url is the request's
// URL, or its name when the request has a template (as k6 tags a
// templated http.url), so the series stay few; at most MaxTaggedSeries
// tag sets are kept, requests of further ones are counted as dropped.
//
// VUs hand their observations over in small batches through a bounded
// queue to the push goroutine (a full queue drops and counts them); the
// series are pushed, with every series of the run, at every flush.

// MaxTaggedSeries bounds the tag sets of the HTTP series of one output.
const MaxTaggedSeries = 500

// obsBatch is how many requests a VU gathers before handing them over.
const obsBatch = 256

// httpKey is a tag set.
type httpKey struct {
	scenario, method, name, url, proto string
	status, errorCode                  int
	expected                           bool
}

// httpObs is one request's measurements, µs and bytes.
type httpObs struct {
	key        httpKey
	phases     [numPhases]int64
	sent, recv int64
}

// The trend phases, in k6's names.
const (
	phDuration = iota
	phBlocked
	phConnecting
	phTLS
	phSending
	phWaiting
	phReceiving
	numPhases
)

var phaseNames = [numPhases]string{
	metrics.HTTPReqDuration, metrics.HTTPReqBlocked, metrics.HTTPReqConnecting, metrics.HTTPReqTLS,
	metrics.HTTPReqSending, metrics.HTTPReqWaiting, metrics.HTTPReqReceiving,
}

// httpSeries is the state of one tag set, from the start of the run.
type httpSeries struct {
	labels     []label // without __name__
	reqs, fail int64
	sent, recv int64
	phases     [numPhases]phaseState
}

// phaseState is a trend: zeros are counted apart, so that the mostly-zero
// phases (blocked, connecting, TLS on kept-alive connections) cost no
// histogram until they see a value.
type phaseState struct {
	h     *hdr.Histogram
	zeros int64
	sum   float64 // seconds
}

func (p *phaseState) record(us int64) {
	if us <= 0 {
		p.zeros++
		return
	}
	if p.h == nil {
		p.h = metric.NewHistogram()
	}
	_ = p.h.RecordValue(min(us, metrics.HistHighest))
	p.sum += float64(us) / 1e6
}

// stats are p99, p95, p90, med, avg, min, max (seconds), count and sum.
func (p *phaseState) stats() (q [4]float64, avg, lo, hi float64, n int64) {
	n = p.zeros
	if p.h != nil {
		n += p.h.TotalCount()
	}
	if n == 0 {
		return
	}
	if p.h == nil || p.h.TotalCount() == 0 {
		return q, 0, 0, 0, n
	}
	// Quantiles over zeros and the histogram: the zeros come first.
	for i, pct := range []float64{99, 95, 90, 50} {
		rank := pct / 100 * float64(n)
		if rank <= float64(p.zeros) {
			continue
		}
		within := (rank - float64(p.zeros)) / float64(p.h.TotalCount()) * 100
		q[i] = float64(p.h.ValueAtQuantile(min(within, 100))) / 1e6
	}
	lo = float64(p.h.Min()) / 1e6
	if p.zeros > 0 {
		lo = 0
	}
	return q, p.sum / float64(n), lo, float64(p.h.Max()) / 1e6, n
}

// taggedState is owned by the push goroutine.
type taggedState struct {
	series  map[httpKey]*httpSeries
	order   []*httpSeries
	dropped int64 // requests of tag sets beyond MaxTaggedSeries
}

func (o *Output) addObs(batch []httpObs) {
	st := &o.tagged
	if st.series == nil {
		st.series = map[httpKey]*httpSeries{}
	}
	for i := range batch {
		ob := &batch[i]
		s := st.series[ob.key]
		if s == nil {
			if len(st.series) >= MaxTaggedSeries {
				st.dropped++
				continue
			}
			s = &httpSeries{labels: o.keyLabels(ob.key)}
			st.series[ob.key] = s
			st.order = append(st.order, s)
		}
		s.reqs++
		if !ob.key.expected {
			s.fail++
		}
		s.sent += ob.sent
		s.recv += ob.recv
		for p := range numPhases {
			s.phases[p].record(ob.phases[p])
		}
	}
	o.putObs(batch)
}

func (o *Output) keyLabels(k httpKey) []label {
	ls := append([]label(nil), o.base...)
	add := func(n, v string) {
		if v != "" {
			ls = append(ls, label{n, v})
		}
	}
	if k.errorCode != 0 {
		add("error_code", strconv.Itoa(k.errorCode))
	}
	add("expected_response", strconv.FormatBool(k.expected))
	add("method", k.method)
	add("name", k.name)
	add("proto", k.proto)
	add("scenario", k.scenario)
	if k.status != 0 {
		add("status", strconv.Itoa(k.status))
	} else {
		add("status", "0")
	}
	add("url", k.url)
	sortLabels(ls)
	return ls
}

// taggedSeries are the samples of every tag set at ts (ms).
func (o *Output) taggedSeries(ts int64) []series {
	var out []series
	for _, s := range o.tagged.order {
		add := func(name string, v float64) {
			ls := make([]label, 0, len(s.labels)+1)
			ls = append(ls, label{"__name__", name})
			ls = append(ls, s.labels...)
			sortLabels(ls)
			out = append(out, series{labels: ls, samples: []sample{{v, ts}}})
		}
		add("k6_http_reqs_total", float64(s.reqs))
		add("k6_http_req_failed_rate", float64(s.fail)/float64(s.reqs))
		add("k6_data_sent_total", float64(s.sent))
		add("k6_data_received_total", float64(s.recv))
		for p := range numPhases {
			q, avg, lo, hi, n := s.phases[p].stats()
			name := metricName(phaseNames[p])
			for i, st := range []string{"p99", "p95", "p90", "med"} {
				add(name+"_"+st, q[i])
			}
			add(name+"_avg", avg)
			add(name+"_min", lo)
			add(name+"_max", hi)
			add(name+"_count", float64(n))
			add(name+"_sum", s.phases[p].sum)
		}
	}
	return out
}

// taggedNames are the per-scenario counts and trends that the tagged
// series replace once a request log feeds them.
var taggedNames = map[string]bool{
	metrics.HTTPReqs: true, metrics.HTTPReqFailed: true, metrics.HTTPReqFailed + metrics.RateTotalSuffix: true,
	metrics.DataSent: true, metrics.DataReceived: true, metrics.HTTPReqDuration: true,
}

var (
	_ reqlog.Log    = (*Output)(nil)
	_ reqlog.Writer = (*obsWriter)(nil)
)

// Writer returns one VU's writer of HTTP observations (reqlog.Log).
func (o *Output) Writer(scenario string) reqlog.Writer {
	o.writers.Add(1)
	return &obsWriter{o: o, scenario: scenario}
}

// obsWriter gathers one VU's HTTP requests.
type obsWriter struct {
	o        *Output
	scenario string
	buf      []httpObs
	first    time.Time
}

// Write adds an HTTP record's observation (other records are ignored:
// their metrics come per second).
func (w *obsWriter) Write(r reqlog.Record) {
	h := r.HTTP
	if h == nil {
		return
	}
	if w.buf == nil {
		w.buf = w.o.getObs()
		w.first = r.Time
	}
	url := h.URL
	if url == "" {
		url = r.Query
	}
	name := h.NameOr()
	if name == "" {
		name = url
	}
	if h.Name != "" && h.Name != url {
		url = name // a template: k6's url tag of a templated request
	}
	w.buf = append(w.buf, httpObs{
		key: httpKey{scenario: w.scenario, method: h.Method, name: name, url: url, proto: h.Proto,
			status: h.Status, errorCode: h.ErrorCode, expected: h.Expected},
		phases: [numPhases]int64{us(h.Duration()), us(h.Blocked), us(h.Connecting), us(h.TLSHandshaking),
			us(h.Sending), us(h.Waiting), us(h.Receiving)},
		sent: h.Sent, recv: h.Received,
	})
	if len(w.buf) >= obsBatch || r.Time.Sub(w.first) >= time.Second {
		w.handoff()
	}
}

func us(d time.Duration) int64 { return int64(d / time.Microsecond) }

func (w *obsWriter) handoff() {
	if len(w.buf) == 0 {
		return
	}
	b := w.buf
	w.buf = nil
	w.o.obsMu.RLock()
	defer w.o.obsMu.RUnlock()
	if w.o.obsClosed {
		w.o.obsDropped.Add(int64(len(b)))
		return
	}
	select {
	case w.o.obs <- b:
	default:
		w.o.obsDropped.Add(int64(len(b)))
	}
}

// Close hands over what is gathered.
func (w *obsWriter) Close() error {
	w.handoff()
	return nil
}

// obsPool recycles observation batches.
type obsPool struct{ p sync.Pool }

func (o *Output) getObs() []httpObs {
	if b, ok := o.pool.p.Get().(*[]httpObs); ok {
		return (*b)[:0]
	}
	return make([]httpObs, 0, obsBatch)
}

func (o *Output) putObs(b []httpObs) {
	b = b[:0]
	o.pool.p.Put(&b)
}
