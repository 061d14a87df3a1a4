package metric

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

func TestSortedErrors(t *testing.T) {
	sc := NewScenarioSnapshot("s", "")
	sc.Errors = map[string]int64{"b": 2, "a": 2, "c": 5, "d": 1}
	want := []ErrorCount{{Msg: "c", N: 5}, {Msg: "a", N: 2}, {Msg: "b", N: 2}, {Msg: "d", N: 1}}
	if got := sc.SortedErrors(); !reflect.DeepEqual(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

// TestStatsMatchTheHistogram: Stats and StatsOf take Min and Max from the
// 0th and 100th percentiles; they must equal the histogram's own Min and
// Max (and the rest its own figures) for any content.
func TestStatsMatchTheHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := map[string][]int64{
		"one zero":      {0},
		"zeros and one": {0, 0, 0, 7},
		"one value":     {123456},
		"the highest":   {HistHighest, 1},
		"small":         {1, 2, 3, 1000, 1023, 1024, 2047, 2048},
	}
	for i := range 200 {
		var vs []int64
		for range 1 + rng.IntN([]int{50, 5000}[i%2]) {
			vs = append(vs, rng.Int64N(1<<uint(1+rng.IntN(31))))
		}
		cases[fmt.Sprintf("random %d", i)] = vs
	}
	for name, vs := range cases {
		h := NewHistogram()
		for _, v := range vs {
			if err := h.RecordValue(v); err != nil {
				t.Fatal(err)
			}
		}
		got := (&Trend{Hist: h}).Stats()
		q := h.ValueAtPercentilesSlice([]float64{50, 90, 95, 99, 99.9})
		want := Stats{Count: h.TotalCount(), Min: float64(h.Min()), Avg: h.Mean(), Med: float64(q[0]), Max: float64(h.Max()),
			P90: float64(q[1]), P95: float64(q[2]), P99: float64(q[3]), P999: float64(q[4]), StdDev: h.StdDev()}
		if got != want {
			t.Errorf("%s: Stats = %+v, want %+v", name, got, want)
		}
		for _, p := range []float64{50, 90, 95, 99, 99.9} {
			if one, all := h.ValueAtPercentile(p), h.ValueAtPercentilesSlice([]float64{p})[0]; one != all {
				t.Errorf("%s: p(%v) alone %d, in a slice %d", name, p, one, all)
			}
		}
		if p := StatsOf(h); p.Max != h.Max() || p.P50 != q[0] || p.Mean != h.Mean() || p.N != h.TotalCount() {
			t.Errorf("%s: StatsOf = %+v, want max %d p50 %d mean %v", name, p, h.Max(), q[0], h.Mean())
		}
	}
}

// TestEncodeHistogramAsTheLibrary: EncodeHistogram writes the very bytes
// of hdr.Histogram.Encode (base64-encoded once more), for empty, small,
// wide and random histograms, one encoder after another (reused), and
// DecodeHistogram reads them back equal.
func TestEncodeHistogramAsTheLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := map[string][]int64{
		"empty":          nil,
		"one zero":       {0},
		"zeros":          {0, 0, 0},
		"the highest":    {HistHighest},
		"a run of zeros": {1, 1_000_000},
		"big counts":     nil,
	}
	for i := range 50 {
		var vs []int64
		for range 1 + rng.IntN(3000) {
			vs = append(vs, rng.Int64N(1<<uint(1+rng.IntN(32))))
		}
		cases[fmt.Sprintf("random %d", i)] = vs
	}
	for name, vs := range cases {
		h := NewHistogram()
		for _, v := range vs {
			if err := h.RecordValue(min(v, HistHighest)); err != nil {
				t.Fatal(err)
			}
		}
		if name == "big counts" {
			h.RecordValues(5, 1<<40) // a count of 9 LEB128 bytes' range
			h.RecordValues(70, 1<<62)
		}
		lib, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // the second time through a reused encoder
			got, err := EncodeHistogram(h)
			if err != nil {
				t.Fatal(err)
			}
			if want := base64.StdEncoding.EncodeToString(lib); got != want {
				t.Fatalf("%s: encoded %.60q…, the library %.60q…", name, got, want)
			}
			back, err := DecodeHistogram(got)
			if err != nil || !back.Equals(h) {
				t.Fatalf("%s: decoded %v, equal %v", name, err, back != nil && back.Equals(h))
			}
		}
	}
}

// BenchmarkEncodeHistogram encodes a second's histogram of 10,000
// requests, as the series writes one every second.
func BenchmarkEncodeHistogram(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	h := NewHistogram()
	for range 10000 {
		h.RecordValue(100 + rng.Int64N(20000))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeHistogram(h); err != nil {
			b.Fatal(err)
		}
	}
}
