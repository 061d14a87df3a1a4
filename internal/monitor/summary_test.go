package monitor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeSamples(t *testing.T, samples []Sample) string {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for _, s := range samples {
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	return dir
}

func TestSummarize(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var samples []Sample
	for i := 1; i <= 10; i++ {
		util := 0.5
		if i > 5 {
			util = 0.95 // the second half is busy
		}
		samples = append(samples, Sample{Time: base.Add(time.Duration(i) * time.Second), Source: "node", DT: 1, Values: map[string]float64{
			CPUCores: 4, CPUUtil: util, CPUBusyCores: 4 * util, MemTotal: 8e9, MemUsed: 2e9,
			NetRx: 1.2e8, NetTx: 1e6, NetRx + ":eth0": 1.2e8, NetTx + ":eth0": 1e6, NetRx + ":lo": 5e8,
		}})
	}
	samples = append(samples, Sample{Time: base.Add(7500 * time.Millisecond), Source: "node", Err: "connection refused"})
	dir := writeSamples(t, samples)
	wins := []Window{
		{From: base, To: base.Add(5 * time.Second)},
		{From: base.Add(5 * time.Second), To: base.Add(10 * time.Second)},
		{From: base.Add(4500 * time.Millisecond), To: base.Add(5500 * time.Millisecond)},
	}
	t.Run("no speed known", func(t *testing.T) {
		got, err := Summarize(dir, wins, SummarizeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		first, second, half := got[0][0], got[1][0], got[2][0]
		if first.Samples != 5 || first.Saturated() || first.Warning() != "" || first.CPUAvg != 0.5 || first.CPUSeconds != 10 {
			t.Errorf("first: %+v", first)
		}
		if !second.Saturated() || second.Failed != 1 || !strings.Contains(second.Warning(), "CPU above 85% of its 4 cores in 5 of 5 s") {
			t.Errorf("second: %+v %q", second, second.Warning())
		}
		// Half of second 5 (2 busy cores) and half of second 6 (3.8).
		if half.Samples != 2 || half.CPUSeconds < 2.899 || half.CPUSeconds > 2.901 {
			t.Errorf("half: %+v", half)
		}
		if first.NetPeakDev != "eth0" || first.NetPeak != 1.2e8 || first.NICBound() {
			t.Errorf("lo must not be the peak when eth0 carries traffic; unknown speed is no NIC verdict: %+v", first)
		}
	})
	t.Run("--nic-speed 1G", func(t *testing.T) {
		got, err := Summarize(dir, wins[:1], SummarizeOptions{NICSpeed: 1.25e8})
		if err != nil {
			t.Fatal(err)
		}
		st := got[0][0]
		if !st.NICBound() || !strings.Contains(st.Warning(), "network eth0 above 90% of its 1 Gbit/s link in 5 of 5 s") {
			t.Errorf("%+v %q", st, st.Warning())
		}
	})
	t.Run("no file", func(t *testing.T) {
		got, err := Summarize(t.TempDir(), wins, SummarizeOptions{})
		if err != nil || got != nil {
			t.Errorf("%v %v", got, err)
		}
	})
}
