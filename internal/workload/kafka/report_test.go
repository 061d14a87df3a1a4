package kafka

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/golden"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// The notes a run writes into its summary, rendered from fixed counts.
func TestNotesGolden(t *testing.T) {
	var lines []string
	for _, profile := range []string{ProfileHighThroughput, ProfileHighReliability} {
		o, err := family(t, "--kafka-profile", profile, "--topics", "3").effective()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, describe(&o))
	}
	topics := []string{"t-0", "t-1", "t-2", "t-3"}
	lines = append(lines, msgload.PartSpread("topic", topics, []int64{1000, 980, 1020, 1000}, 2*time.Second, ""))

	b := &base{run: &run{opts: DefaultOptions()}}
	b.Name = ScenarioProduce
	b.opts.ChurnInterval, b.opts.ChurnStart, b.opts.ChurnFor, b.opts.ChurnBrokers = time.Second, 5*time.Second, 10*time.Second, true
	b.ChurnOps.Store(22)
	spans := msgload.Window{On: true, From: 5 * time.Second, For: 10 * time.Second}.Spans(20 * time.Second)
	acked := [3]int64{250_000, 480_000, 245_000}
	secs := [3][]float64{{49_000, 51_500, 50_200, 48_900, 50_400}, {47_000, 49_500, 48_000, 48_500, 46_900, 48_200, 47_800, 48_300, 48_100, 47_700}, {47_500, 50_500, 49_000, 48_000, 50_000}}
	lines = append(lines, b.churnText()+"; "+msgload.PhaseRates(spans, acked, secs))
	// A clear change: outside the per-second spread.
	secs[1] = []float64{30_000, 31_000}
	lines = append(lines, b.churnText()+"; "+msgload.PhaseRates(spans, acked, secs))
	// Standing-in settings and the stand-in note.
	hr, _ := family(t, "--kafka-profile", ProfileHighReliability).effective()
	lines = append(lines, standIn{brokers: 3, inProcess: true, fsync: true}.note(&hr), standIn{brokers: 1}.note(&hr), spreadNote(3))
	for _, r := range []float64{0.25, 99.94, 123456.7} {
		lines = append(lines, fmtRate(r))
	}
	got := strings.Join(lines, "\n") + "\n"
	golden.Check(t, "notes.golden", []byte(got))
}
