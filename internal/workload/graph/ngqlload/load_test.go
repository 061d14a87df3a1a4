package ngqlload

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
	"github.com/stampede-bench/stampede/internal/golden"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

func tinyData(t *testing.T, extraKnows ...string) string {
	dir := t.TempDir()
	rows := map[string][]string{}
	for k, v := range ldbctest.Tiny {
		rows[k] = v
	}
	rows[ldbcfile.PersonKnowsPersonPath] = append(append([]string{}, rows[ldbcfile.PersonKnowsPersonPath]...), extraKnows...)
	ldbctest.Write(t, dir, rows)
	return dir
}

func TestLoadIntoStandIn(t *testing.T) {
	c, err := nebulatest.StartCluster(2, nebulatest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Store.SchemaLag = 300 * time.Millisecond // inserts before this fail: the wait must hold them back
	data := tinyData(t, "2|1|2012-01-01T00:00:00.000+0000", "3|3|2012-01-01T00:00:00.000+0000", "1|99|2012-01-01T00:00:00.000+0000")
	target := "nebula://root:nebula@" + strings.Join(c.Addrs(), ",") + "/sf"
	ctx := context.Background()
	st, err := Load(ctx, Config{Target: target, Data: data, Batch: 2, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if st.Persons != 8 || st.Knows != 6 || st.Failed != 3 || st.Partitions != DefaultPartitions || st.Replicas != DefaultReplicaFactor || st.VidType != "INT64" {
		t.Fatalf("stats %+v", st)
	}
	failed, err := os.ReadFile(st.FailedFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"|1|duplicate friendship|2|1", "|1|friendship with oneself|3|3", "|1|unknown person|1|99"} {
		if !strings.Contains(string(failed), want) {
			t.Errorf("failed file lacks %q:\n%s", want, failed)
		}
	}
	m, err := Inspect(ctx, target, nil)
	if err != nil || m == nil || m.Persons != 8 || m.Knows != 6 || m.Fingerprint == "" {
		t.Fatalf("inspect: %+v, %v", m, err)
	}
	// A second load without --drop is refused as bad usage.
	_, err = Load(ctx, Config{Target: target, Data: data})
	if !usage.Is(err) || !strings.Contains(err.Error(), "--drop") {
		t.Fatalf("reload without --drop: %v", err)
	}
	if _, err := Load(ctx, Config{Target: target, Data: data, Drop: true}); err != nil {
		t.Fatalf("reload with --drop: %v", err)
	}
	if m, err := Inspect(ctx, "nebula://root:nebula@"+c.Addrs()[0]+"/other", nil); m != nil || err != nil {
		t.Fatalf("inspect of a missing space: %+v %v", m, err)
	}
}

func TestRejectedBatchesGoToTheFailedFileWithTheirCode(t *testing.T) {
	c, err := nebulatest.StartCluster(1, nebulatest.Options{Fail: func(q string) (graphsvc.ErrorCode, string, bool) {
		if strings.HasPrefix(q, "INSERT EDGE KNOWS(creationDate) VALUES 4->5") {
			return graphsvc.ErrorCode_E_CONSENSUS_ERROR, "Storage Error: consensus", true
		}
		return 0, "", false
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	data := tinyData(t)
	target := "nebula://root:nebula@" + c.Addrs()[0] + "/sf"
	_, err = Load(context.Background(), Config{Target: target, Data: data, Batch: 1})
	if err != nil {
		t.Fatal(err) // counts verify against what was written
	}
	failed, _ := os.ReadFile(data + "/failed_batches.csv")
	if !strings.Contains(string(failed), ldbcfile.PersonKnowsPersonPath+"|5|1|E_CONSENSUS_ERROR(-3001): Storage Error: consensus|") {
		t.Fatalf("failed file:\n%s", failed)
	}
	m, err := Inspect(context.Background(), target, nil)
	if err != nil || m.Knows != 5 || m.Failed != 1 {
		t.Fatalf("%+v %v", m, err)
	}
}

func TestDryRunPrintsTheStatements(t *testing.T) {
	data := tinyData(t)
	var out bytes.Buffer
	st, err := Load(context.Background(), Config{Target: "nebula://root:secretpw@127.0.0.1:1/sf1", Data: data, Batch: 4, DryRun: &out})
	if err != nil {
		t.Fatal(err)
	}
	if st.Persons != 8 || st.Knows != 6 {
		t.Fatalf("%+v", st)
	}
	got := out.String()
	if strings.Contains(got, "secretpw") {
		t.Fatal("dry run prints the password")
	}
	// The record carries the absolute data path and the time: cut it.
	got = got[:strings.Index(got, "INSERT VERTEX stampede_meta")]
	golden.Check(t, "dryrun.ngql", []byte(got))
}

var _ = loader.ErrIncomplete

func TestImporterConfig(t *testing.T) {
	var b bytes.Buffer
	if err := WriteImporterConfig(&b, "/data/sf1", "sf1"); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "importer.yaml", b.Bytes())
}
