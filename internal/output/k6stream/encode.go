// Package k6stream writes a run's per-request measurements in the formats
// of k6's --out json= (NDJSON "Metric" and "Point" lines) and --out csv=
// outputs, so that the tools that read k6's files read stampede's.
//
// Each request becomes one point per metric: for an HTTP request k6's
// http_reqs, http_req_duration, http_req_blocked, http_req_connecting,
// http_req_tls_handshaking, http_req_sending, http_req_waiting,
// http_req_receiving, http_req_failed, data_sent and data_received; for
// other families responseTime, latency (when the target reports it),
// requests and requests_failed. Time values are milliseconds, as in k6.
// Points are tagged like k6's (scenario, and for HTTP method, name,
// proto, status, url, expected_response) plus the run's --tag values.
//
// Lines are buffered per VU and written in blocks (see csvlog): within a
// file they are grouped by VU, in time order per VU; sort by time when a
// tool needs global order. Memory is bounded: VUs block rather than drop.
package k6stream

import (
	"sort"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// Config describes what every point carries.
type Config struct {
	// Tags are added to every point (--tag values and testid).
	Tags map[string]string
	// Origin is the scheme://host of an HTTP target, so that the url tag
	// is a full URL like k6's; may be empty.
	Origin string

	checkName checkNamer // set by Open from the registry
}

// point is one measurement of a request.
type point struct {
	metric string
	value  float64
}

// points lists the measurements of r, in k6's order, into dst.
func points(dst []point, r *reqlog.Record) []point {
	if h := r.HTTP; h != nil {
		failed := 1.0
		if h.Expected {
			failed = 0
		}
		return append(dst,
			point{metrics.HTTPReqs, 1},
			point{metrics.HTTPReqDuration, msOf(h.Duration())},
			point{metrics.HTTPReqBlocked, msOf(h.Blocked)},
			point{metrics.HTTPReqConnecting, msOf(h.Connecting)},
			point{metrics.HTTPReqTLS, msOf(h.TLSHandshaking)},
			point{metrics.HTTPReqSending, msOf(h.Sending)},
			point{metrics.HTTPReqWaiting, msOf(h.Waiting)},
			point{metrics.HTTPReqReceiving, msOf(h.Receiving)},
			point{metrics.HTTPReqFailed, failed},
			point{metrics.DataSent, float64(h.Sent)},
			point{metrics.DataReceived, float64(h.Received)},
		)
	}
	failed := 0.0
	if !r.OK {
		failed = 1
	}
	dst = append(dst, point{metrics.Requests, 1}, point{metrics.ResponseTime, msOf(r.ResponseTime)})
	if r.Latency >= 0 {
		dst = append(dst, point{metrics.Latency, msOf(r.Latency)})
	}
	return append(dst, point{metrics.RequestsFailed, failed})
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// extraTags returns cfg's tags sorted by key, without k6's own keys.
func extraTags(tags map[string]string) [][2]string {
	var out [][2]string
	for k, v := range tags {
		switch k {
		case "scenario", "method", "name", "proto", "status", "url", "expected_response", "group", "error":
			continue
		}
		out = append(out, [2]string{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

const hex = "0123456789abcdef"

// appendFloat appends v the way encoding/json does for float64.
func appendFloat(b []byte, v float64) []byte {
	if v == float64(int64(v)) && v > -1e15 && v < 1e15 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// httpURL is k6's url tag of an HTTP record: the sample's own URL, else
// the stream's origin and the record's path.
func httpURL(cfg *Config, r *reqlog.Record) string {
	if r.HTTP.URL != "" {
		return r.HTTP.URL
	}
	return cfg.Origin + r.Query
}

// httpName is k6's name tag: the sample's name (a URL template), else url.
func httpName(h *metrics.HTTPSample, url string) string {
	if h.Name != "" {
		return h.Name
	}
	return url
}
