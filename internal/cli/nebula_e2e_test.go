package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

// A NebulaGraph user's path on the in-test stand-in graphd: load --dry-run
// without a server, load, run (twice) and compare; the run says the
// target is the stand-in, the CSV carries the server latency, and the
// password shows nowhere.
func TestNebulaEndToEnd(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	c, err := nebulatest.StartCluster(2, nebulatest.Options{Users: map[string]string{"root": "s3cretpw"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	target := "nebula://root:s3cretpw@" + strings.Join(c.Addrs(), ",") + "/sf"

	code, stdout, stderr := runMain(t, t.Context(), "load", "--target", "nebula://root:s3cretpw@127.0.0.1:1/sf", "--data", data, "--dry-run")
	if code != ExitOK || !strings.Contains(stdout, "CREATE SPACE IF NOT EXISTS `sf`(partition_num = 24, replica_factor = 3, vid_type = INT64);") ||
		!strings.Contains(stdout, "INSERT EDGE KNOWS(creationDate) VALUES 1->2:") || !strings.Contains(stderr, "nothing was sent") {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runMain(t, t.Context(), "load", "--target", target, "--data", data, "--partitions", "3", "--replica-factor", "1")
	if code != ExitOK || !strings.Contains(stdout, "partition_num 3, replica_factor 1, vid_type INT64 (read back from the target)") ||
		!strings.Contains(stdout, "loaded 8 Person vertices and 6 KNOWS edges") {
		t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, _, stderr = runMain(t, t.Context(), "load", "--target", target, "--data", data)
	if code != ExitUsage || !strings.Contains(stderr, "--drop") {
		t.Fatalf("reload without --drop: exit %d, %s", code, stderr)
	}
	var outs []string
	for range 2 {
		out := filepath.Join(t.TempDir(), "out")
		outs = append(outs, out)
		code, stdout, stderr = runMain(t, t.Context(), "run", "go.Go1Step", "find_path.FindShortestPath", "--target", target,
			"-u", "2", "-i", "20", "--check-sample", "1", "--out", out, "--no-color")
		if code != ExitOK {
			t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
		}
		for _, want := range []string{"NOT NebulaGraph", "never against a real NebulaGraph server", "✓"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("run output lacks %q:\n%s", want, stdout)
			}
		}
		if strings.Contains(stdout, "wrong result") {
			t.Errorf("wrong results:\n%s", stdout)
		}
	}
	code, stdout, stderr = runMain(t, t.Context(), "compare", outs[0], outs[1])
	if code != ExitOK && code != 1 {
		t.Fatalf("compare: exit %d\n%s\n%s", code, stdout, stderr)
	}
	sw := filepath.Join(t.TempDir(), "sw")
	code, stdout, stderr = runMain(t, t.Context(), "sweep", "go.Go1Step", "--target", target, "--vus", "1,2", "-i", "40", "--out", sw, "--no-csv", "-q")
	if code != ExitOK || !strings.Contains(stdout, "VU sweep") {
		t.Fatalf("sweep: exit %d\n%s\n%s", code, stdout, stderr)
	}
	parts := filepath.Join(t.TempDir(), "parts")
	for i := 1; i <= 2; i++ {
		code, _, stderr = runMain(t, t.Context(), "run", "go.Go2Step", "--target", target, "-i", "30", "-u", "2", "--segment", fmt.Sprintf("%d/2", i),
			"--out", filepath.Join(parts, fmt.Sprint(i)), "--no-csv", "--no-report", "-q")
		if code != ExitOK {
			t.Fatalf("segment %d: exit %d %s", i, code, stderr)
		}
	}
	code, stdout, stderr = runMain(t, t.Context(), "merge", parts, "-o", filepath.Join(t.TempDir(), "merged"))
	if code != ExitOK {
		t.Fatalf("merge: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var csv []byte
	filepath.Walk(outs[0], func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".csv") && csv == nil {
			csv, _ = os.ReadFile(p)
		}
		return nil
	})
	lines := strings.Split(string(csv), "\n")
	if len(lines) < 2 || lines[0] != "timestamp,nGQL,latency,responseTime,isSucceed,rows,label,answer,errorMsg" {
		t.Fatalf("csv:\n%.500s", csv)
	}
	if f := strings.Split(lines[1], ","); len(f) < 3 || f[2] == "" {
		t.Errorf("latency column empty: %s", lines[1])
	}
	filepath.Walk(filepath.Dir(outs[0]), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "s3cretpw") {
				t.Errorf("%s contains the password", p)
			}
		}
		return nil
	})
}

func TestGenWritesNebulaImporterConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "importer.yaml")
	code, stdout, stderr := runMain(t, t.Context(), "gen", "ldbc", "--sf", "0.002", "--out", filepath.Join(dir, "d"), "--quiet", "--nebula-importer", cfg, "--nebula-space", "sf0")
	if code != ExitOK || !strings.Contains(stdout, "nebula-importer configuration written to") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, _ := os.ReadFile(cfg)
	if !strings.Contains(string(b), "space: sf0") || !strings.Contains(string(b), filepath.Join(dir, "d", "social_network")) {
		t.Fatalf("config:\n%s", b)
	}
	code, _, stderr = runMain(t, t.Context(), "gen", "ldbc", "--sf", "0.002", "--out", filepath.Join(dir, "e"), "--nebula-importer", cfg)
	if code != ExitUsage || !strings.Contains(stderr, "not overwriting") {
		t.Fatalf("existing file: exit %d %s", code, stderr)
	}
}
