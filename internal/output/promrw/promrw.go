// Package promrw pushes a run's metrics to a Prometheus remote-write
// endpoint (remote write 1.0: a snappy-compressed protobuf WriteRequest),
// named as k6's experimental-prometheus-rw output names them, so that k6's
// Prometheus dashboards and queries find them:
//
//	k6_NAME_total{scenario,testid,...}      counters, cumulative: k6_http_reqs_total, k6_data_sent_total,
//	                                        k6_iterations_total, k6_requests_total, k6_errors_total, ...
//	k6_NAME_rate{...}                       rates, the fraction so far: k6_http_req_failed_rate, k6_checks_rate,
//	                                        k6_requests_failed_rate
//	k6_vus{...}                             active VUs
//	k6_http_req_duration_STAT{...}          trends so far, seconds (k6's trend-stats gauges): http_req_duration
//	k6_responseTime_STAT{...}               and responseTime; STAT is p99, p95, p90, med, avg, min, max, count, sum
//
// Every series carries the run's tags (testid and --tag values) and the
// scenario. One sample per series per finished second is pushed, in
// batches. Observe never blocks: when the queue is full or a push fails,
// the samples are counted as dropped and Stats says so.
package promrw

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/klauspost/compress/snappy"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

// Config configures an Output. Zero values take the defaults.
type Config struct {
	// URL is the remote-write endpoint, e.g. http://127.0.0.1:9090/api/v1/write.
	URL string
	// Tags become labels of every series (testid, --tag values).
	Tags map[string]string
	// Registry tells which counts are rates; nil: all counters.
	Registry *metrics.Registry
	// FlushInterval is how often to push; default 2s.
	FlushInterval time.Duration
	// Timeout bounds one push; default 5s.
	Timeout time.Duration
	// QueueSize is the number of seconds waiting to be pushed; default 600.
	QueueSize int
	// Warn receives one line on the first failed push; nil: silent.
	Warn io.Writer
}

// CheckURL validates a remote-write URL.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("want an http(s) URL such as http://127.0.0.1:9090/api/v1/write, not %q", redact(raw))
	}
	return nil
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// Stats count what happened to the samples.
type Stats struct {
	Samples, Written, Dropped int64
	// DroppedRequests are HTTP requests not in the tagged series: the
	// queue was full, or their tag set was beyond MaxTaggedSeries.
	DroppedRequests int64
	Pushes, Errors  int64
	LastError       string
}

// Note is a one-line remark for the summary, or "" when every sample was pushed.
func (s Stats) Note(display string) string {
	if s.Dropped == 0 && s.DroppedRequests == 0 {
		return ""
	}
	var msg string
	if s.Dropped > 0 {
		msg = fmt.Sprintf("prometheus remote write %s: %d of %d samples not written (%d failed pushes)", display, s.Dropped, s.Samples, s.Errors)
		if s.LastError != "" {
			msg += "; last error: " + s.LastError
		}
	}
	if s.DroppedRequests > 0 {
		if msg != "" {
			msg += "; "
		} else {
			msg = "prometheus remote write " + display + ": "
		}
		msg += fmt.Sprintf("%d HTTP requests missing from the tagged k6_http_* series (queue full or more than %d tag sets)", s.DroppedRequests, MaxTaggedSeries)
	}
	return msg
}

// Output pushes to one endpoint.
type Output struct {
	cfg     Config
	display string
	client  *http.Client
	kinds   func(string) metrics.Kind
	base    []label // tag labels, sorted

	mu    sync.Mutex // guards state (Observe runs on the aggregator goroutine)
	state map[string]*scenarioState

	in      chan []series
	samples atomic.Int64
	dropped atomic.Int64
	done    chan struct{}
	once    sync.Once
	stats   Stats // owned by the writer goroutine until done

	// HTTP series with k6's tags (tagged.go), fed by VU writers.
	writers    atomic.Int64
	obs        chan []httpObs
	obsMu      sync.RWMutex // guards obsClosed against sends on obs
	obsClosed  bool
	obsDropped atomic.Int64 // requests not folded in: queue full
	pool       obsPool
	tagged     taggedState // owned by the writer goroutine
}

type scenarioState struct {
	counts map[string]int64
	trends map[string]*trendState // responseTime and the series trends (http_req_duration)
}

type trendState struct {
	h   *hdr.Histogram
	sum float64 // seconds
}

func (s *scenarioState) add(name string, h *hdr.Histogram) {
	if h == nil || h.TotalCount() == 0 {
		return
	}
	t := s.trends[name]
	if t == nil {
		t = &trendState{h: metric.NewHistogram()}
		s.trends[name] = t
	}
	t.h.Merge(h)
	t.sum += h.Mean() * float64(h.TotalCount()) / 1e6
}

// New starts an output.
func New(cfg Config) (*Output, error) {
	if err := CheckURL(cfg.URL); err != nil {
		return nil, err
	}
	if cfg.FlushInterval <= 0 {
		cfg.FlushInterval = 2 * time.Second
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.QueueSize <= 0 {
		cfg.QueueSize = 600
	}
	o := &Output{cfg: cfg, display: redact(cfg.URL), client: &http.Client{Timeout: cfg.Timeout},
		state: map[string]*scenarioState{}, in: make(chan []series, cfg.QueueSize), done: make(chan struct{}),
		obs: make(chan []httpObs, 1024)}
	o.kinds = func(string) metrics.Kind { return metrics.KindCounter }
	if reg := cfg.Registry; reg != nil {
		o.kinds = func(name string) metrics.Kind {
			if id, ok := reg.Lookup(name); ok {
				return reg.Def(id).Kind
			}
			return 0
		}
	}
	for k, v := range cfg.Tags {
		if k != "scenario" && v != "" {
			o.base = append(o.base, label{labelName(k), v})
		}
	}
	sortLabels(o.base)
	go o.loop()
	return o, nil
}

// Display is the URL without credentials.
func (o *Output) Display() string { return o.display }

// Observe adds one finished second (a metrics.Observer): it updates the
// cumulative state and queues one sample per series, without blocking.
func (o *Output) Observe(p *metrics.Point) {
	o.mu.Lock()
	s := o.state[p.Scenario]
	if s == nil {
		s = &scenarioState{counts: map[string]int64{}, trends: map[string]*trendState{}}
		o.state[p.Scenario] = s
	}
	for k, n := range p.Counts {
		s.counts[k] += n
	}
	s.add(metrics.ResponseTime, p.Hist)
	for name, h := range p.Trends {
		if !metrics.IsHTTPPhase(name) { // the phases come per request, with k6's tags (tagged.go)
			s.add(name, h)
		}
	}
	// The end of the second, but never in the future: a query at "now"
	// must see the final totals the moment the run ends.
	ts := min(p.Time.Add(time.Second).UnixMilli(), time.Now().UnixMilli())
	ss := o.seriesOf(p.Scenario, s, p.VUs, p.VUsMax, ts)
	o.mu.Unlock()
	o.samples.Add(int64(len(ss)))
	select {
	case o.in <- ss:
	default:
		o.dropped.Add(int64(len(ss)))
	}
}

func (o *Output) seriesOf(scenario string, s *scenarioState, vus, vusMax, ts int64) []series {
	var out []series
	tagged := o.writers.Load() > 0 // k6's HTTP metrics come with their tags (tagged.go)
	named := false
	for k := range s.counts {
		if _, ok := metrics.CheckName(k); ok {
			named = true
		}
	}
	add := func(name string, v float64) {
		ls := make([]label, 0, len(o.base)+2)
		ls = append(ls, label{"__name__", name}, label{"scenario", scenario})
		ls = append(ls, o.base...)
		sortLabels(ls)
		out = append(out, series{labels: ls, samples: []sample{{v, ts}}})
	}
	addLabelled := func(name, key, value string, v float64) {
		ls := make([]label, 0, len(o.base)+3)
		ls = append(ls, label{"__name__", name}, label{"scenario", scenario}, label{key, value})
		ls = append(ls, o.base...)
		sortLabels(ls)
		out = append(out, series{labels: ls, samples: []sample{{v, ts}}})
	}
	names := make([]string, 0, len(s.counts))
	for k := range s.counts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if tagged && taggedNames[k] {
			continue
		}
		if k == metrics.Checks && named {
			continue // k6 has one checks series per check: k6_checks_rate{check=...}
		}
		if base, ok := strings.CutSuffix(k, metrics.RateTotalSuffix); ok {
			if check, isCheck := metrics.CheckName(base); isCheck {
				if _, has := s.counts[base]; !has {
					addLabelled("k6_checks_rate", "check", check, 0) // every sample of it failed
				}
				continue
			}
		}
		if check, ok := metrics.CheckName(k); ok {
			pass, fail := metric.RateParts(s.counts, k)
			addLabelled("k6_checks_rate", "check", check, float64(pass)/float64(pass+fail))
			continue
		}
		if base, ok := strings.CutSuffix(k, metrics.RateTotalSuffix); ok && o.kinds(base) == metrics.KindRate {
			if _, has := s.counts[base]; !has {
				add(metricName(base)+"_rate", 0)
			}
			continue
		}
		if strings.Contains(k, "{") {
			continue // named checks: k6_checks_rate covers them
		}
		if o.kinds(k) == metrics.KindRate {
			pass, fail := metric.RateParts(s.counts, k)
			add(metricName(k)+"_rate", float64(pass)/float64(pass+fail))
			continue
		}
		add(metricName(k)+"_total", float64(s.counts[k]))
	}
	if _, has := s.counts[metrics.DroppedIterations]; !has && o.kinds(metrics.DroppedIterations) == metrics.KindCounter {
		add("k6_dropped_iterations_total", 0) // none so far: the panel shows 0, not "no data"
	}
	add("k6_vus", float64(vus))
	if vusMax > 0 {
		add("k6_vus_max", float64(vusMax))
	}
	for _, tn := range sortedNames(s.trends) {
		if tagged && taggedNames[tn] {
			continue
		}
		t := s.trends[tn]
		q := t.h.ValueAtPercentilesSlice([]float64{99, 95, 90, 50})
		name := metricName(tn)
		for i, st := range []string{"p99", "p95", "p90", "med"} {
			add(name+"_"+st, float64(q[i])/1e6)
		}
		add(name+"_avg", t.h.Mean()/1e6)
		add(name+"_min", float64(t.h.Min())/1e6)
		add(name+"_max", float64(t.h.Max())/1e6)
		add(name+"_count", float64(t.h.TotalCount()))
		add(name+"_sum", t.sum)
	}
	return out
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (o *Output) loop() {
	defer close(o.done)
	t := time.NewTicker(o.cfg.FlushInterval)
	defer t.Stop()
	var batch []series
	for {
		select {
		case b := <-o.obs:
			o.addObs(b)
		case ss, ok := <-o.in:
			if !ok {
				for drained := false; !drained; {
					select {
					case b := <-o.obs:
						o.addObs(b)
					default:
						drained = true
					}
				}
				o.push(append(batch, o.taggedSeries(time.Now().UnixMilli())...))
				return
			}
			batch = append(batch, ss...)
		case <-t.C:
			o.push(append(batch, o.taggedSeries(time.Now().UnixMilli())...))
			batch = nil
		}
	}
}

// push sends one WriteRequest; a failure drops its samples (counted).
func (o *Output) push(batch []series) {
	if len(batch) == 0 {
		return
	}
	body := snappy.Encode(nil, appendWriteRequest(nil, batch))
	o.stats.Pushes++
	err := o.post(body)
	if err != nil {
		o.stats.Errors++
		o.stats.LastError = err.Error()
		o.dropped.Add(int64(len(batch)))
		if o.stats.Errors == 1 && o.cfg.Warn != nil {
			fmt.Fprintf(o.cfg.Warn, "stampede: prometheus remote write: %s (the run goes on; lost samples are counted in the summary)\n", err)
		}
		return
	}
	o.stats.Written += int64(len(batch))
}

func (o *Output) post(body []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), o.cfg.Timeout)
	defer cancel()
	return o.postCtx(ctx, body)
}

// postCtx pushes one encoded WriteRequest within ctx.
func (o *Output) postCtx(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Encoding", "snappy")
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("User-Agent", "stampede")
	req.Header.Set("X-Prometheus-Remote-Write-Version", "0.1.0")
	resp, err := o.client.Do(req)
	if err != nil {
		return fmt.Errorf("push to %s: %v", o.display, shortErr(err))
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("push to %s: %s %s", o.display, resp.Status, strings.Join(strings.Fields(string(msg)), " "))
	}
	return nil
}

func shortErr(err error) error {
	var ue *url.Error
	if e, ok := err.(*url.Error); ok {
		ue = e
		return ue.Err
	}
	return err
}

// Close pushes what is queued and returns the final Stats.
func (o *Output) Close() Stats {
	o.once.Do(func() {
		o.obsMu.Lock()
		o.obsClosed = true
		o.obsMu.Unlock()
		close(o.in)
		<-o.done
		o.stats.Samples = o.samples.Load()
		o.stats.Dropped = o.dropped.Load()
		o.stats.DroppedRequests = o.obsDropped.Load() + o.tagged.dropped
	})
	return o.stats
}
