// Package prom exposes a run's live metrics to Prometheus. A Collector is
// fed the per-second Points of the aggregator and exposes cumulative
// counters, gauges and a response-time histogram (classic buckets and a
// native histogram) per scenario, following Prometheus naming conventions:
//
//	stampede_iterations_total{scenario}            completed iterations
//	stampede_requests_total{scenario}              operations sent to the target
//	stampede_errors_total{scenario,error}          failures by message (at most MaxErrorMessages, the rest as "other")
//	stampede_dropped_iterations_total{scenario}    arrival-rate iterations that found no free VU
//	stampede_checks_total{scenario,result}         checks by result="pass"|"fail"
//	stampede_workload_total{scenario,metric}       workload counters (e.g. retries)
//	stampede_workload_rate_total{scenario,metric,result} workload rates
//	stampede_vus{scenario}                         active VUs
//	stampede_response_time_seconds{scenario}       responseTime, seconds
//	stampede_generator_cpu_ratio                   the generator's CPU use, fraction of its cores (when known)
//	stampede_generator_resident_memory_bytes       the generator's resident memory (when known)
//
// Values change once per second, when the aggregator finishes a second.
package prom

import (
	"sort"
	"strings"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

// Options configure a Collector. Zero values take the defaults.
type Options struct {
	// MaxErrorMessages bounds the error label values per scenario;
	// further messages count as error="other". Default 50.
	MaxErrorMessages int
	// Buckets are the classic histogram upper bounds, seconds. Default
	// DefaultBuckets.
	Buckets []float64
	// Schema is the native histogram schema (-4…8); default 3, a growth
	// factor of 2^(1/8) ≈ 1.09 per bucket.
	Schema int32
	// Generator, when set, reports the generator's latest CPU use (fraction
	// of its cores) and resident memory (bytes).
	Generator func() (cpu float64, rss int64, ok bool)
	// Start is the run's start, exposed as the created timestamp.
	Start time.Time
	// Labels are added to every series (the run's testid and --tag
	// values), as constant labels.
	Labels prometheus.Labels
}

// DefaultBuckets are classic response-time buckets from 100µs to 10s.
var DefaultBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// maxLabelLen bounds an error label value, in bytes.
const maxLabelLen = 160

// otherError is the label value of error messages past the cap.
const otherError = "other"

// Collector is a prometheus.Collector fed by Observe. Observe and Collect
// are safe for concurrent use: Observe runs on the aggregator goroutine,
// Collect on scrapes.
type Collector struct {
	opts   Options
	reg    *metrics.Registry
	bounds []float64 // native bucket bounds in [0.5, 1)

	iterations, requests, errs, dropped, checks, counter, rate, vus, rt, genCPU, genRSS *prometheus.Desc

	mu        sync.Mutex
	scenarios map[string]*scenarioState
	order     []string
}

var _ prometheus.Collector = (*Collector)(nil)

type scenarioState struct {
	iterations, requests, errors, dropped int64
	checksPass, checksFail                int64
	vus                                   int64
	counters                              map[string]int64
	rates                                 map[string][2]int64
	msgs                                  map[string]int64
	rt                                    *hdr.Histogram
	rtSum                                 float64 // seconds
}

// New returns a collector. reg tells the kinds of workload metrics
// (counters and rates); nil treats unknown counts as counters.
func New(reg *metrics.Registry, opts Options) *Collector {
	if opts.MaxErrorMessages <= 0 {
		opts.MaxErrorMessages = 50
	}
	if len(opts.Buckets) == 0 {
		opts.Buckets = DefaultBuckets
	}
	if opts.Schema == 0 {
		opts.Schema = 3
	}
	opts.Schema = min(max(opts.Schema, -4), 8)
	sc := []string{"scenario"}
	c := &Collector{
		opts: opts, reg: reg, bounds: nativeBounds(opts.Schema),
		iterations: prometheus.NewDesc("stampede_iterations_total", "Completed iterations.", sc, opts.Labels),
		requests:   prometheus.NewDesc("stampede_requests_total", "Operations sent to the target.", sc, opts.Labels),
		errs:       prometheus.NewDesc("stampede_errors_total", "Failed operations and iterations by error message.", []string{"scenario", "error"}, opts.Labels),
		dropped:    prometheus.NewDesc("stampede_dropped_iterations_total", "Arrival-rate iterations that found no free VU.", sc, opts.Labels),
		checks:     prometheus.NewDesc("stampede_checks_total", "Checks by result (pass or fail).", []string{"scenario", "result"}, opts.Labels),
		counter:    prometheus.NewDesc("stampede_workload_total", "Workload counters by metric name.", []string{"scenario", "metric"}, opts.Labels),
		rate:       prometheus.NewDesc("stampede_workload_rate_total", "Workload rates by metric name and result (pass or fail).", []string{"scenario", "metric", "result"}, opts.Labels),
		vus:        prometheus.NewDesc("stampede_vus", "Active virtual users.", sc, opts.Labels),
		rt:         prometheus.NewDesc("stampede_response_time_seconds", "Client-measured response time (from the intended start under arrival-rate executors).", sc, opts.Labels),
		genCPU:     prometheus.NewDesc("stampede_generator_cpu_ratio", "CPU use of the stampede process over the last second, as a fraction of the cores it may use.", nil, opts.Labels),
		genRSS:     prometheus.NewDesc("stampede_generator_resident_memory_bytes", "Resident memory of the stampede process.", nil, opts.Labels),
		scenarios:  map[string]*scenarioState{},
	}
	return c
}

// Declare makes the scenarios' series exist (at zero) before their first
// second is finished.
func (c *Collector) Declare(names ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range names {
		c.state(n)
	}
}

func (c *Collector) state(name string) *scenarioState {
	s, ok := c.scenarios[name]
	if !ok {
		s = &scenarioState{counters: map[string]int64{}, rates: map[string][2]int64{}, msgs: map[string]int64{}, rt: metric.NewHistogram()}
		c.scenarios[name] = s
		c.order = append(c.order, name)
	}
	return s
}

// Observe adds one finished second. It is a metrics.Observer: it merges
// p.Hist and keeps no reference to it.
func (c *Collector) Observe(p *metrics.Point) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.state(p.Scenario)
	for name, n := range p.Counts {
		switch name {
		case metrics.Iterations:
			s.iterations += n
		case metrics.Requests:
			s.requests += n
		case metrics.Errors:
			s.errors += n
		case metrics.DroppedIterations:
			s.dropped += n
		case metrics.Checks:
			s.checksPass += n
		case metrics.Checks + metrics.RateTotalSuffix:
			s.checksFail += n - p.Counts[metrics.Checks]
		default:
			c.addCustom(s, name, n, p.Counts)
		}
	}
	for msg, n := range p.Errors {
		msg = truncate(msg)
		if _, ok := s.msgs[msg]; !ok && len(s.msgs) >= c.opts.MaxErrorMessages {
			msg = otherError
		}
		s.msgs[msg] += n
	}
	s.vus = p.VUs
	if p.Hist != nil && p.Hist.TotalCount() > 0 {
		s.rt.Merge(p.Hist)
		s.rtSum += p.RT.Mean * float64(p.RT.N) / 1e6
	}
}

// addCustom counts a workload counter or rate (NAME / NAME_total, of
// the point's counts).
func (c *Collector) addCustom(s *scenarioState, name string, n int64, counts map[string]int64) {
	base, fail := name, false
	if b, ok := strings.CutSuffix(name, metrics.RateTotalSuffix); ok && c.kindOf(b) == metrics.KindRate {
		base, fail = b, true
		n -= counts[b] // the zero samples: k6's fails
	}
	if c.kindOf(base) == metrics.KindRate {
		r := s.rates[base]
		if fail {
			r[1] += n
		} else {
			r[0] += n
		}
		s.rates[base] = r
		return
	}
	s.counters[name] += n
}

func (c *Collector) kindOf(name string) metrics.Kind {
	if c.reg == nil {
		return metrics.KindCounter
	}
	id, ok := c.reg.Lookup(name)
	if !ok {
		return 0
	}
	return c.reg.Def(id).Kind
}

func truncate(msg string) string {
	if len(msg) <= maxLabelLen {
		return msg
	}
	cut := maxLabelLen
	for cut > 0 && msg[cut]&0xC0 == 0x80 { // keep UTF-8 whole
		cut--
	}
	return msg[:cut] + "…"
}

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.iterations, c.requests, c.errs, c.dropped, c.checks, c.counter, c.rate, c.vus, c.rt, c.genCPU, c.genRSS} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ct := c.opts.Start
	counter := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetricWithCreatedTimestamp(d, prometheus.CounterValue, float64(v), ct, labels...)
	}
	for _, name := range c.order {
		s := c.scenarios[name]
		counter(c.iterations, s.iterations, name)
		counter(c.requests, s.requests, name)
		counter(c.dropped, s.dropped, name)
		counter(c.checks, s.checksPass, name, "pass")
		counter(c.checks, s.checksFail, name, "fail")
		var named int64
		for _, msg := range sortedKeys(s.msgs) {
			counter(c.errs, s.msgs[msg], name, msg)
			named += s.msgs[msg]
		}
		if rest := s.errors - named; rest > 0 {
			counter(c.errs, rest, name, "unspecified")
		}
		for _, k := range sortedKeys(s.counters) {
			counter(c.counter, s.counters[k], name, k)
		}
		for _, k := range sortedKeys(s.rates) {
			counter(c.rate, s.rates[k][0], name, k, "pass")
			counter(c.rate, s.rates[k][1], name, k, "fail")
		}
		ch <- prometheus.MustNewConstMetric(c.vus, prometheus.GaugeValue, float64(s.vus), name)
		ch <- c.histogram(s, name)
	}
	if c.opts.Generator != nil {
		if cpu, rss, ok := c.opts.Generator(); ok {
			ch <- prometheus.MustNewConstMetric(c.genCPU, prometheus.GaugeValue, cpu)
			ch <- prometheus.MustNewConstMetric(c.genRSS, prometheus.GaugeValue, float64(rss))
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
