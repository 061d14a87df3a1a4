package k6stream

import (
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/reqlog"
)

// CSVHeader is the first line of k6's CSV output.
const CSVHeader = "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata\n"

// csvEncoder writes k6's CSV lines for one VU.
type csvEncoder struct {
	cfg      *Config
	scenario string
	extra    string // the extra_tags column: k=v&k2=v2, CSV-quoted if needed
	pts      []point
	rest     []byte // the columns after metric_value of the current record
	sec      int64
	stamp    []byte
}

func newCSVEncoder(cfg *Config, scenario string) *csvEncoder {
	var kv []string
	for _, t := range extraTags(cfg.Tags) {
		kv = append(kv, t[0]+"="+t[1])
	}
	return &csvEncoder{cfg: cfg, scenario: scenario, extra: string(appendCSV(nil, strings.Join(kv, "&")))}
}

// Append writes one line per measurement of r: metric_name, timestamp (Unix
// seconds), metric_value (6 decimals, ms for times), then the tag columns.
func (e *csvEncoder) Append(b []byte, r *reqlog.Record) []byte {
	if sec := r.Time.Unix(); sec != e.sec || e.stamp == nil {
		e.sec = sec
		e.stamp = strconv.AppendInt(e.stamp[:0], sec, 10)
	}
	e.rest = e.appendTagColumns(e.rest[:0], r)
	e.pts = points(e.pts[:0], r)
	for _, p := range e.pts {
		b = append(b, p.metric...)
		b = append(b, ',')
		b = append(b, e.stamp...)
		b = append(b, ',')
		b = strconv.AppendFloat(b, p.value, 'f', 6, 64)
		b = append(b, e.rest...)
	}
	return b
}

// appendTagColumns writes ",check,error,error_code,expected_response,group,
// method,name,proto,scenario,service,status,subproto,tls_version,url,
// extra_tags,metadata" and the newline.
func (e *csvEncoder) appendTagColumns(b []byte, r *reqlog.Record) []byte {
	b = append(b, ",,"...) // check
	if !r.OK && (r.HTTP == nil || r.HTTP.Status == 0) {
		b = appendCSV(b, r.Err)
	}
	b = append(b, ',') // error_code
	if r.HTTP != nil && r.HTTP.ErrorCode != 0 {
		b = strconv.AppendInt(b, int64(r.HTTP.ErrorCode), 10)
	}
	b = append(b, ',')
	if h := r.HTTP; h != nil {
		url := httpURL(e.cfg, r)
		b = append(b, boolText(h.Expected)...)
		b = append(b, ',')
		b = appendCSV(b, h.Group)
		b = append(b, ',')
		b = appendCSV(b, h.Method)
		b = append(b, ',')
		b = appendCSV(b, httpName(h, url))
		b = append(b, ',')
		b = appendCSV(b, h.Proto)
		b = append(b, ',')
		b = appendCSV(b, e.scenario)
		b = append(b, ",,"...) // service
		if h.Status != 0 {
			b = strconv.AppendInt(b, int64(h.Status), 10)
		}
		b = append(b, ",,,"...) // subproto, tls_version
		b = appendCSV(b, url)
	} else {
		b = append(b, ",,,"...) // expected_response, group, method
		b = appendCSV(b, r.Query)
		b = append(b, ",,"...) // proto
		b = appendCSV(b, e.scenario)
		b = append(b, ",,,,,"...) // service, status, subproto, tls_version, url
	}
	b = append(b, ',')
	b = append(b, e.extra...)
	return append(b, ",\n"...) // metadata
}

// appendCSV appends s as one CSV field, quoted per RFC 4180 when needed.
func appendCSV(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
