package kafka

import (
	"bytes"
	"compress/flate"
	"strconv"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
)

func TestStampRoundTrip(t *testing.T) {
	var b [headerLen]byte
	in := stamp{SentNs: 1_700_000_000_123_456_789, VU: 4242, Seq: 1 << 40}
	putStamp(b[:], in)
	out, ok := parseStamp(b[:])
	if !ok || out != in {
		t.Errorf("round trip %+v → %+v (%v)", in, out, ok)
	}
	if _, ok := parseStamp(b[:10]); ok {
		t.Error("short header accepted")
	}
}

// ratio is the deflate-compressed size of n values over their raw size.
func ratio(t *testing.T, p *payloads, n int) float64 {
	t.Helper()
	var raw, out bytes.Buffer
	w, _ := flate.NewWriter(&out, flate.DefaultCompression)
	x := uint64(1)
	for range n {
		v := p.value(&x)
		if len(v) != p.size {
			t.Fatalf("value of %d bytes, want %d", len(v), p.size)
		}
		raw.Write(v)
		w.Write(v)
	}
	w.Close()
	return float64(out.Len()) / float64(raw.Len())
}

func TestPayloads(t *testing.T) {
	tests := []struct {
		kind     string
		min, max float64
	}{
		{"random", 0.97, 1.01},      // a batch of 500 messages does not compress
		{"compressible", 0.15, 0.5}, // text-like
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			p := newPayloads(tc.kind, 2048, codecPoolBytes, 1)
			if r := ratio(t, p, 500); r < tc.min || r > tc.max {
				t.Errorf("compression ratio %.3f, want in [%.2f, %.2f]", r, tc.min, tc.max)
			}
		})
	}
	if newPayloads("random", 0, plainPoolBytes, 1).value(new(uint64)) != nil {
		t.Error("zero-size messages should have no value")
	}
	// Values are read-only windows: capacity ends at the value.
	v := newPayloads("random", 100, plainPoolBytes, 1).value(new(uint64))
	if cap(v) != 100 {
		t.Errorf("cap %d lets appends overwrite the pool", cap(v))
	}
}

// TestPoolBytes: the pool is small only when nothing compresses batches.
func TestPoolBytes(t *testing.T) {
	val := func(s string) kadm.Config { return kadm.Config{Key: "compression.type", Value: &s} }
	tests := []struct {
		name  string
		codec string
		rb    *topicsReadBack
		want  int
	}{
		{"no codec, kfake reports no compression.type", "none", &topicsReadBack{configs: map[string]kadm.Config{}}, plainPoolBytes},
		{"no codec, broker keeps the producer's", "none", &topicsReadBack{configs: map[string]kadm.Config{"compression.type": val("producer")}}, plainPoolBytes},
		{"no codec, topic uncompressed", "", &topicsReadBack{configs: map[string]kadm.Config{"compression.type": val("uncompressed")}}, plainPoolBytes},
		{"producer codec", "lz4", &topicsReadBack{configs: map[string]kadm.Config{}}, codecPoolBytes},
		{"broker recompresses", "none", &topicsReadBack{configs: map[string]kadm.Config{"compression.type": val("zstd")}}, codecPoolBytes},
		{"configs unreadable", "none", &topicsReadBack{cfgErr: "CLUSTER_AUTHORIZATION_FAILED"}, codecPoolBytes},
	}
	for _, tc := range tests {
		if got := poolBytes(compressed(tc.codec, tc.rb)); got != tc.want {
			t.Errorf("%s: pool %d bytes, want %d", tc.name, got, tc.want)
		}
	}
}

// BenchmarkPayloadCopy is what the client does with a value: copy it into
// a batch (a 1 MB buffer, as a full produce request), from each pool size.
func BenchmarkPayloadCopy(b *testing.B) {
	for _, pool := range []int{plainPoolBytes, codecPoolBytes} {
		b.Run(strconv.Itoa(pool>>10)+"KiB", func(b *testing.B) {
			p := newPayloads("random", 2048, pool, 1)
			batch := make([]byte, 0, 1<<20)
			x := uint64(1)
			b.ReportAllocs()
			b.SetBytes(2048)
			for b.Loop() {
				if len(batch)+2048 > cap(batch) {
					batch = batch[:0]
				}
				batch = append(batch, p.value(&x)...)
			}
		})
	}
}

func BenchmarkPayloadValue(b *testing.B) {
	p := newPayloads("random", 2048, plainPoolBytes, 1)
	x := uint64(1)
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n += len(p.value(&x))
	}
	_ = n
}

func BenchmarkStamp(b *testing.B) {
	var h [headerLen]byte
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		putStamp(h[:], stamp{SentNs: int64(i), VU: 1, Seq: uint64(i)})
	}
}

func TestParseTopicSpec(t *testing.T) {
	tests := []struct {
		in   string
		want TopicSpec
		bad  bool
	}{
		{in: "orders", want: TopicSpec{"orders", 1, 1}},
		{in: "orders:6", want: TopicSpec{"orders", 6, 1}},
		{in: "a.b_c-d:3:3", want: TopicSpec{"a.b_c-d", 3, 3}},
		{in: "", bad: true},
		{in: "..", bad: true},
		{in: "a b:1:1", bad: true},
		{in: "t:0:1", bad: true},
		{in: "t:1:0", bad: true},
		{in: "t:x", bad: true},
		{in: "t:1:1:1", bad: true},
		{in: "t:1:40000", bad: true},
	}
	for _, tc := range tests {
		got, err := ParseTopicSpec(tc.in)
		if tc.bad != (err != nil) || !tc.bad && got != tc.want {
			t.Errorf("ParseTopicSpec(%q) = %+v, %v", tc.in, got, err)
		}
	}
}

func FuzzParseTopicSpec(f *testing.F) {
	for _, s := range []string{"orders", "t:3:3", "::", "a:-1:2", "x:99999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := ParseTopicSpec(s)
		if err != nil {
			return
		}
		if checkTopicName(ts.Name) != nil || ts.Partitions < 1 || ts.RF < 1 {
			t.Errorf("ParseTopicSpec(%q) accepted %+v", s, ts)
		}
	})
}
