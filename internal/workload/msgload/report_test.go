package msgload

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/golden"
)

// The core's notes in both families' words, rendered from fixed counts.
func TestReportGolden(t *testing.T) {
	el := 20 * time.Second
	lines := []string{
		ThroughputLine("", 1_000_000, 2048*1_000_000, 3, el),
		ThroughputLine("by PubAck", 1_000_000, 2048*1_000_000, 0, el),
		PartSpread("topic", []string{"t-0", "t-1", "t-2", "t-3"}, []int64{1000, 980, 1020, 1000}, 2*time.Second, ""),
		PartSpread("stream", []string{"s-0", "s-1", "s-2"}, []int64{900, 1000, 1100}, 2*time.Second, "each VU writes one stream"),
		// Each part's mean latency from its own acknowledgements (µs sums);
		// a part without one is left out and counted.
		PartLatency("stream", []string{"s-0", "s-1", "s-2"}, []int64{900, 1000, 1100}, []int64{900 * 850, 1000 * 12_345, 1100 * 2_500_000}),
		PartLatency("topic", []string{"t-0", "t-1"}, []int64{10, 0}, []int64{10 * 40, 0}),
		PartLatency("topic", []string{"t-0", "t-1"}, []int64{0, 0}, []int64{0, 0}),
		SpreadHow("stream", 6, 3),
		SpreadHow("stream", 5, 3),
		SpreadHow("topic", 2, 200),
	}
	secs := [3][]float64{{49_000, 51_500}, {20_000, 30_000}, {47_500, 50_500}}
	for _, w := range []Window{
		{On: true, From: 5 * time.Second, For: 10 * time.Second},
		// A kill never restarted: "during" lasts to the end.
		{On: true, From: 5 * time.Second},
		// A window that opens after the end.
		{On: true, From: 30 * time.Second, For: 10 * time.Second},
	} {
		lines = append(lines, PhaseRates(w.Spans(el), [3]int64{250_000, 250_000, 245_000}, secs))
	}
	golden.Check(t, "report.golden", []byte(strings.Join(lines, "\n")+"\n"))
}
