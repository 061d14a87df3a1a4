package k6stream

import (
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// jsonEncoder writes k6's NDJSON Point lines for one VU.
type jsonEncoder struct {
	cfg      *Config
	scenario string
	extra    [][2]string
	pts      []point
	tags     []byte // the tags object of the current record
	stamp    []byte // the formatted time of the current record
	last     time.Time
}

func newJSONEncoder(cfg *Config, scenario string) *jsonEncoder {
	return &jsonEncoder{cfg: cfg, scenario: scenario, extra: extraTags(cfg.Tags)}
}

// Append writes one Point line per measurement of r:
//
//	{"type":"Point","data":{"time":"2006-01-02T15:04:05.999999999Z07:00","value":1.5,"tags":{...}},"metric":"http_req_duration"}
func (e *jsonEncoder) Append(b []byte, r *reqlog.Record) []byte {
	if !r.Time.Equal(e.last) || e.stamp == nil {
		e.last = r.Time
		e.stamp = r.Time.AppendFormat(e.stamp[:0], time.RFC3339Nano)
	}
	e.tags = e.appendTags(e.tags[:0], r)
	e.pts = points(e.pts[:0], r)
	for _, p := range e.pts {
		b = append(b, `{"type":"Point","data":{"time":"`...)
		b = append(b, e.stamp...)
		b = append(b, `","value":`...)
		b = appendFloat(b, p.value)
		b = append(b, `,"tags":`...)
		b = append(b, e.tags...)
		b = append(b, `},"metric":"`...)
		b = append(b, p.metric...)
		b = append(b, "\"}\n"...)
	}
	return b
}

// appendTags writes the tags object of r, keys in k6's (alphabetical) order
// followed by the extra tags.
func (e *jsonEncoder) appendTags(b []byte, r *reqlog.Record) []byte {
	b = append(b, '{')
	if h := r.HTTP; h != nil {
		if h.Status == 0 && r.Err != "" {
			b = append(b, `"error":`...)
			b = appendJSONString(b, r.Err)
			b = append(b, ',')
		}
		if h.ErrorCode != 0 {
			b = append(b, `"error_code":"`...)
			b = appendInt(b, h.ErrorCode)
			b = append(b, `",`...)
		}
		url := httpURL(e.cfg, r)
		b = append(b, `"expected_response":"`...)
		b = append(b, boolText(h.Expected)...)
		b = append(b, `","group":`...)
		b = appendJSONString(b, h.Group)
		b = append(b, `,"method":`...)
		b = appendJSONString(b, h.Method)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, httpName(h, url))
		b = append(b, `,"proto":`...)
		b = appendJSONString(b, h.Proto)
		b = append(b, `,"scenario":`...)
		b = appendJSONString(b, e.scenario)
		b = append(b, `,"status":"`...)
		b = appendInt(b, h.Status)
		b = append(b, `","url":`...)
		b = appendJSONString(b, url)
	} else {
		if !r.OK {
			b = append(b, `"error":`...)
			b = appendJSONString(b, r.Err)
			b = append(b, ',')
		}
		b = append(b, `"group":"","name":`...)
		b = appendJSONString(b, r.Query)
		b = append(b, `,"scenario":`...)
		b = appendJSONString(b, e.scenario)
	}
	for _, kv := range e.extra {
		b = append(b, ',')
		b = appendJSONString(b, kv[0])
		b = append(b, ':')
		b = appendJSONString(b, kv[1])
	}
	return append(b, '}')
}

// jsonHeader is the Metric line of every metric the stream may write, in
// registry order: {"type":"Metric","data":{"name":...,"type":"trend","contains":"time","thresholds":[...],"submetrics":null},"metric":...}.
// thresholds maps a metric to its threshold expressions.
func jsonHeader(reg *metrics.Registry, thresholds map[string][]string) string {
	var b []byte
	for _, name := range streamMetrics(reg) {
		id, _ := reg.Lookup(name)
		d := reg.Def(id)
		b = append(b, `{"type":"Metric","data":{"name":`...)
		b = appendJSONString(b, name)
		b = append(b, `,"type":"`...)
		b = append(b, d.Kind.String()...)
		b = append(b, `","contains":"`...)
		b = append(b, d.Unit.String()...)
		b = append(b, `","thresholds":[`...)
		for i, t := range thresholds[name] {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, t)
		}
		b = append(b, `],"submetrics":null},"metric":`...)
		b = appendJSONString(b, name)
		b = append(b, "}\n"...)
	}
	return string(b)
}

// streamMetrics lists the registered metrics that points may write.
func streamMetrics(reg *metrics.Registry) []string {
	candidates := []string{
		metrics.Requests, metrics.ResponseTime, metrics.Latency, metrics.RequestsFailed,
		metrics.HTTPReqs, metrics.HTTPReqDuration, metrics.HTTPReqBlocked, metrics.HTTPReqConnecting,
		metrics.HTTPReqTLS, metrics.HTTPReqSending, metrics.HTTPReqWaiting, metrics.HTTPReqReceiving,
		metrics.HTTPReqFailed, metrics.DataSent, metrics.DataReceived,
		metrics.Iterations, metrics.IterationDuration, metrics.Checks,
	}
	var out []string
	for _, n := range candidates {
		if _, ok := reg.Lookup(n); ok {
			out = append(out, n)
		}
	}
	return out
}

func boolText(v bool) string {
	if v {
		return "true"
	}
	return "false"
}

func appendInt(b []byte, n int) []byte { return appendFloat(b, float64(n)) }
