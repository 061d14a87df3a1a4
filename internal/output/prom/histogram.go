package prom

import (
	"math"
	"sort"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// zeroThreshold is the native histogram's zero bucket: 2^-20 s ≈ 0.95µs,
// so that HDR's 0 µs (sub-microsecond) values fall into it and 1 µs does not.
const zeroThreshold = 1.0 / (1 << 20)

// histMetric is a histogram with both classic buckets and a native
// histogram, built from accumulated counts (client_golang's const
// histograms carry one or the other).
type histMetric struct {
	desc   *prometheus.Desc
	labels []*dto.LabelPair
	h      *dto.Histogram
}

func (m *histMetric) Desc() *prometheus.Desc { return m.desc }

func (m *histMetric) Write(out *dto.Metric) error {
	out.Label = m.labels
	out.Histogram = m.h
	return nil
}

// histogram converts a scenario's cumulative HDR histogram (µs) into
// Prometheus buckets (seconds). Each HDR bucket's count goes to the
// buckets holding its highest equivalent value, so bucket counts are never
// optimistic by more than HDR's 0.1% resolution.
func (c *Collector) histogram(s *scenarioState, scenario string) prometheus.Metric {
	classic := make([]uint64, len(c.opts.Buckets))
	native := map[int]int64{}
	var zero uint64
	var total uint64
	for _, bar := range s.rt.Distribution() {
		if bar.Count == 0 {
			continue
		}
		n := uint64(bar.Count)
		total += n
		v := float64(bar.To) / 1e6
		if i := sort.SearchFloat64s(c.opts.Buckets, v); i < len(classic) {
			classic[i] += n
		}
		if v <= zeroThreshold {
			zero += n
		} else {
			native[c.nativeIndex(v)] += int64(n)
		}
	}
	h := &dto.Histogram{
		SampleCount:   &total,
		SampleSum:     new(s.rtSum),
		Schema:        new(c.opts.Schema),
		ZeroThreshold: new(float64(zeroThreshold)),
		ZeroCount:     new(zero),
	}
	if !c.opts.Start.IsZero() {
		h.CreatedTimestamp = timestamppb.New(c.opts.Start)
	}
	var cum uint64
	for i, ub := range c.opts.Buckets {
		cum += classic[i]
		h.Bucket = append(h.Bucket, &dto.Bucket{CumulativeCount: new(cum), UpperBound: new(ub)})
	}
	h.PositiveSpan, h.PositiveDelta = spans(native)
	if len(h.PositiveSpan) == 0 && zero == 0 {
		// An empty native histogram still needs a span to be recognized
		// as native (as client_golang does).
		h.PositiveSpan = []*dto.BucketSpan{{Offset: new(int32(0)), Length: new(uint32(0))}}
	}
	return &histMetric{desc: c.rt, labels: prometheus.MakeLabelPairs(c.rt, []string{scenario}), h: h}
}

// nativeBounds are the bucket boundaries within one power of two, as
// fractions in [0.5, 1) (math.Frexp's range), for a positive schema; nil for
// schema ≤ 0.
func nativeBounds(schema int32) []float64 {
	if schema <= 0 {
		return nil
	}
	n := 1 << schema
	b := make([]float64, n)
	for i := range b {
		b[i] = math.Exp2(float64(i)/float64(n)) / 2
	}
	return b
}

// nativeIndex is the native bucket index of v > 0: bucket i holds
// (2^((i-1)/2^schema), 2^(i/2^schema)], as client_golang computes it.
func (c *Collector) nativeIndex(v float64) int {
	frac, exp := math.Frexp(v)
	if c.opts.Schema > 0 {
		return sort.SearchFloat64s(c.bounds, frac) + (exp-1)*len(c.bounds)
	}
	key := exp
	if frac == 0.5 {
		key--
	}
	offset := (1 << -c.opts.Schema) - 1
	return (key + offset) >> -c.opts.Schema
}

// spans encodes sparse bucket counts as native histogram spans and deltas.
func spans(buckets map[int]int64) ([]*dto.BucketSpan, []int64) {
	if len(buckets) == 0 {
		return nil, nil
	}
	idx := make([]int, 0, len(buckets))
	for i := range buckets {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var (
		out    []*dto.BucketSpan
		deltas []int64
		prev   int64
		next   int
	)
	for n, i := range idx {
		gap := i - next
		if n == 0 || gap > 2 {
			out = append(out, &dto.BucketSpan{Offset: new(int32(gap)), Length: new(uint32(0))})
		} else {
			for range gap { // short gaps: empty buckets are cheaper than a span
				*out[len(out)-1].Length++
				deltas = append(deltas, -prev)
				prev = 0
			}
		}
		*out[len(out)-1].Length++
		deltas = append(deltas, buckets[i]-prev)
		prev = buckets[i]
		next = i + 1
	}
	return out, deltas
}
