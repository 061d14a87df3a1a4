package ngqlload

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
	"github.com/stampede-bench/stampede/internal/progress"
)

// TestProgressReports: the loader reports the rows inserted through the
// callback (it draws nothing itself): counts that never go back, and one
// Final report, last, with every row inserted. A dry run reports nothing.
func TestProgressReports(t *testing.T) {
	c, err := nebulatest.StartCluster(1, nebulatest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var (
		mu      sync.Mutex
		reports []progress.Report
	)
	record := func(r progress.Report) {
		mu.Lock()
		reports = append(reports, r)
		mu.Unlock()
	}
	data := tinyData(t)
	target := "nebula://root:nebula@" + strings.Join(c.Addrs(), ",") + "/sf"
	st, err := Load(context.Background(), Config{Target: target, Data: data, Batch: 2, Progress: record})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	got := reports
	reports = nil
	mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress report")
	}
	last := got[len(got)-1]
	if !last.Final || last.Done != st.Persons+st.Knows || last.Total != 0 {
		t.Errorf("last report %+v, want Final with %d rows", last, st.Persons+st.Knows)
	}
	for i, r := range got {
		if i > 0 && r.Done < got[i-1].Done || r.Final && i != len(got)-1 {
			t.Errorf("reports %+v: counts go back or Final is not last", got)
			break
		}
	}

	var out bytes.Buffer
	if _, err := Load(context.Background(), Config{Target: "nebula://root:pw@127.0.0.1:1/sf", Data: data, DryRun: &out, Progress: record}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 0 {
		t.Errorf("a dry run reported progress: %+v", reports)
	}
}
