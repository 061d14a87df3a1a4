package promrw

import (
	"math"
	"sort"

	"google.golang.org/protobuf/encoding/protowire"
)

// label is one Prometheus label.
type label struct{ name, value string }

// series is one time series with its samples (value, ms timestamp).
type series struct {
	labels  []label // sorted by name, __name__ first
	samples []sample
}

type sample struct {
	v  float64
	ts int64 // ms since the Unix epoch
}

// appendWriteRequest encodes a prometheus.WriteRequest (remote write 1.0):
//
//	message WriteRequest { repeated TimeSeries timeseries = 1; }
//	message TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
//	message Label        { string name = 1; string value = 2; }
//	message Sample       { double value = 1; int64 timestamp = 2; }
func appendWriteRequest(b []byte, ss []series) []byte {
	var ts, tmp []byte
	for _, s := range ss {
		ts = ts[:0]
		for _, l := range s.labels {
			tmp = tmp[:0]
			tmp = protowire.AppendTag(tmp, 1, protowire.BytesType)
			tmp = protowire.AppendString(tmp, l.name)
			tmp = protowire.AppendTag(tmp, 2, protowire.BytesType)
			tmp = protowire.AppendString(tmp, l.value)
			ts = protowire.AppendTag(ts, 1, protowire.BytesType)
			ts = protowire.AppendBytes(ts, tmp)
		}
		for _, smp := range s.samples {
			tmp = tmp[:0]
			tmp = protowire.AppendTag(tmp, 1, protowire.Fixed64Type)
			tmp = protowire.AppendFixed64(tmp, math.Float64bits(smp.v))
			tmp = protowire.AppendTag(tmp, 2, protowire.VarintType)
			tmp = protowire.AppendVarint(tmp, uint64(smp.ts))
			ts = protowire.AppendTag(ts, 2, protowire.BytesType)
			ts = protowire.AppendBytes(ts, tmp)
		}
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, ts)
	}
	return b
}

// sortLabels sorts by name, as remote write requires.
func sortLabels(ls []label) {
	sort.Slice(ls, func(i, j int) bool { return ls[i].name < ls[j].name })
}

// metricName maps a stampede/k6 metric name to a Prometheus one: k6_ +
// name, with characters outside [a-zA-Z0-9_] as '_'.
func metricName(name string) string {
	b := []byte("k6_")
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			b = append(b, c)
		} else {
			b = append(b, '_')
		}
	}
	return string(b)
}

// labelName makes a tag key a valid label name.
func labelName(k string) string {
	b := []byte(k)
	for i, c := range b {
		if !(c == '_' || '0' <= c && c <= '9' && i > 0 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}
