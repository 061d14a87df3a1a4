package influx

import (
	"math"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	lp "github.com/influxdata/line-protocol/v2/lineprotocol"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/metric"
)

// item is the part of a Point the writer goroutine needs. Counts and
// Errors are fresh maps per Point (the aggregator never reuses them), so
// they are shared, not copied.
type item struct {
	scenario string
	t        time.Time
	counts   map[string]int64
	errors   map[string]int64
	vus      int64
	vusMax   int64
	// perSample tells that k6's measurements are written per sample
	// (sample.go): these lines leave them out.
	perSample bool
	rt        metrics.PointStats
	// trends are the per-second stats of series trends (http_req_duration).
	trends map[string]metrics.PointStats
	target *monitor.Sample // a --monitor sample instead of a scenario's second
}

// lines is the number of lines an item becomes (for drop accounting).
func (it *item) lines() int {
	if it.target != nil {
		return len(it.target.Values)
	}
	n := 1 + len(it.errors) // vus + messages
	for name := range it.counts {
		if base, ok := strings.CutSuffix(name, metrics.RateTotalSuffix); ok {
			if _, has := it.counts[base]; has {
				continue
			}
		}
		if !it.perSample || !skipPerSecond(name) {
			n++
		}
	}
	if it.vusMax > 0 {
		n++
	}
	if it.rt.N > 0 {
		n++
	}
	if it.perSample {
		return n
	}
	return n + len(it.trends)
}

// maxTagLen bounds an error message tag, in bytes.
const maxTagLen = 160

// encoder turns items into line protocol, one measurement per metric in
// the manner of k6's InfluxDB output. Times are whole seconds, written in
// ns (the precision of the per-sample points sharing the request).
type encoder struct {
	enc      lp.Encoder
	tags     []tag // extra tags, sorted
	kinds    func(name string) metrics.Kind
	maxMsgs  int
	msgs     map[string]map[string]bool // scenario → messages seen
	failures int                        // lines the encoder refused
	buf      []tag
}

type tag struct{ k, v string }

func newEncoder(extra map[string]string, kinds func(string) metrics.Kind, maxMsgs int) *encoder {
	e := &encoder{kinds: kinds, maxMsgs: maxMsgs, msgs: map[string]map[string]bool{}}
	e.enc.SetPrecision(lp.Nanosecond)
	for k, v := range extra {
		if k != "scenario" && k != "error" && v != "" {
			e.tags = append(e.tags, tag{k, sanitize(v)})
		}
	}
	sort.Slice(e.tags, func(i, j int) bool { return e.tags[i].k < e.tags[j].k })
	return e
}

// line writes one line: measurement, the scenario (and error) tag with the
// extra tags in key order, then fields.
func (e *encoder) line(measurement, scenario, errTag string, t time.Time, fields func()) {
	e.enc.StartLine(measurement)
	e.buf = append(e.buf[:0], e.tags...)
	e.buf = append(e.buf, tag{"scenario", scenario})
	if errTag != "" {
		e.buf = append(e.buf, tag{"error", errTag})
	}
	sort.Slice(e.buf, func(i, j int) bool { return e.buf[i].k < e.buf[j].k })
	for _, tg := range e.buf {
		e.enc.AddTag(tg.k, tg.v)
	}
	fields()
	e.enc.EndLine(t)
	if e.enc.Err() != nil {
		e.failures++
		e.enc.ClearErr()
	}
}

// intField writes a count as a float field, as k6 writes every value:
// a database shared with k6's own writes then has one type per field.
func (e *encoder) intField(k string, v int64) { e.floatField(k, float64(v)) }

func (e *encoder) floatField(k string, v float64) {
	if fv, ok := lp.FloatValue(v); ok {
		e.enc.AddField(k, fv)
	}
}

// add encodes it:
//
//	responseTime,scenario=S value=MEAN,count=N,mean=…,p50=…,p90=…,p95=…,p99=…,max=…   ms
//	iterations|requests|errors|dropped_iterations,scenario=S value=N                    count in the second
//	checks,scenario=S value=PASS_RATE,passes=N,fails=N                                 (and likewise any rate)
//	errors_by_message,error=MSG,scenario=S value=N                                    at most maxMsgs messages per scenario, then "other"
//	vus,scenario=S value=N
//	NAME,scenario=S value=N                                                           workload counters
func (e *encoder) add(it *item) {
	if it.target != nil {
		e.addTarget(it.target)
		return
	}
	sc := sanitize(it.scenario)
	t := it.t.Truncate(time.Second)
	for _, name := range sortedKeys(it.trends) {
		if it.perSample {
			break // http_req_duration: per sample
		}
		st := it.trends[name]
		e.line(name, sc, "", t, func() { e.statFields(st) })
	}
	if it.rt.N > 0 {
		rt := it.rt
		e.line(metrics.ResponseTime, sc, "", t, func() {
			e.floatField("value", round3(rt.Mean/1e3))
			e.intField("count", rt.N)
			e.floatField("max", ms(rt.Max))
			e.floatField("mean", round3(rt.Mean/1e3))
			e.floatField("p50", ms(rt.P50))
			e.floatField("p90", ms(rt.P90))
			e.floatField("p95", ms(rt.P95))
			e.floatField("p99", ms(rt.P99))
		})
	}
	for _, name := range sortedKeys(it.counts) {
		if it.perSample && skipPerSecond(name) {
			continue
		}
		n := it.counts[name]
		if base, ok := strings.CutSuffix(name, metrics.RateTotalSuffix); ok && e.kinds(base) == metrics.KindRate {
			if _, has := it.counts[base]; has {
				continue // written with base
			}
			name = base
		}
		if e.kinds(name) == metrics.KindRate {
			pass, fail := metric.RateParts(it.counts, name)
			e.line(name, sc, "", t, func() {
				e.floatField("value", float64(pass)/float64(pass+fail))
				e.intField("fails", fail)
				e.intField("passes", pass)
			})
			continue
		}
		e.line(name, sc, "", t, func() { e.intField("value", n) })
	}
	seen := e.msgs[it.scenario]
	if seen == nil {
		seen = map[string]bool{}
		e.msgs[it.scenario] = seen
	}
	other := int64(0)
	for _, msg := range sortedKeys(it.errors) {
		m := sanitize(msg)
		if !seen[m] && len(seen) >= e.maxMsgs {
			other += it.errors[msg]
			continue
		}
		seen[m] = true
		n := it.errors[msg]
		e.line("errors_by_message", sc, m, t, func() { e.intField("value", n) })
	}
	if other > 0 {
		e.line("errors_by_message", sc, "other", t, func() { e.intField("value", other) })
	}
	e.line(metrics.VUs, sc, "", t, func() { e.intField("value", it.vus) })
	if it.vusMax > 0 {
		e.line(metrics.VUsMax, sc, "", t, func() { e.intField("value", it.vusMax) })
	}
}

// statFields writes a trend's second: value (the mean, k6 dashboards'
// field), count, max, mean and percentiles, in ms.
func (e *encoder) statFields(st metrics.PointStats) {
	e.floatField("value", round3(st.Mean/1e3))
	e.intField("count", st.N)
	e.floatField("max", ms(st.Max))
	e.floatField("mean", round3(st.Mean/1e3))
	e.floatField("p50", ms(st.P50))
	e.floatField("p90", ms(st.P90))
	e.floatField("p95", ms(st.P95))
	e.floatField("p99", ms(st.P99))
}

func ms(us int64) float64 { return float64(us) / 1e3 }

func round3(x float64) float64 { return math.Round(x*1e3) / 1e3 }

// sanitize makes s a valid tag value: printable, not empty, no trailing
// backslash, at most maxTagLen bytes.
func sanitize(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
	if len(s) > maxTagLen {
		cut := maxTagLen
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	s = strings.TrimRight(s, `\ `)
	if s == "" {
		return "unknown"
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
