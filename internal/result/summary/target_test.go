package summary

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/output/outputtest"
)

func TestTargetInSummaries(t *testing.T) {
	snap := outputtest.Snapshot(t)
	st := monitor.Stats{Source: "node", Samples: 10, Host: true, Cores: 16, CPUAvg: 0.35, CPUMax: 0.61,
		MemUsedMax: 3 << 30, MemTotal: 16 << 30, NetPeak: 1.2e7, NetPeakDev: "eth0", NetRxMax: 1.2e7, NetTxMax: 3e6}
	tgt := map[string][]monitor.Stats{outputtest.Read: {st}}
	var con bytes.Buffer
	if err := WriteConsole(&con, snap, ConsoleOptions{Target: tgt}); err != nil {
		t.Fatal(err)
	}
	out := con.String()
	if !strings.Contains(out, "target node: CPU avg 35% max 61% of 16 cores") || !strings.Contains(out, "12.0 MB/s (eth0)") {
		t.Errorf("console lacks the target:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if width(l) > DefaultWidth {
			t.Errorf("line wider than %d: %q", DefaultWidth, l)
		}
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, snap, JSONOptions{Target: tgt}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Stampede struct {
			Target map[string][]monitor.Stats `json:"target"`
		} `json:"stampede"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Stampede.Target[outputtest.Read]; len(got) != 1 || got[0].CPUMax != 0.61 || got[0].NetPeakDev != "eth0" {
		t.Errorf("summary.json target %+v", doc.Stampede.Target)
	}
	// Without monitoring nothing changes (the golden files hold).
	var plain bytes.Buffer
	if err := WriteJSON(&plain, snap, JSONOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), `"target"`) {
		t.Error("a target block without monitoring")
	}
}
