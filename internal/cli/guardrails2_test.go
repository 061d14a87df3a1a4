package cli

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stampede-bench/stampede/internal/bounded"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

// hugeFiles are inputs past their size bounds, made sparse so that they
// cost no disk: a config, a scenario file, a parameter file and a result
// directory whose summary.json and snapshot.json are huge.
type hugeFiles struct {
	config, scenarioFile, params, resultDir string
	// endlessDir is a result directory whose snapshot.json is /dev/zero.
	endlessDir string
	// latin1 is an LDBC data set whose person file is not UTF-8; db an
	// SQLite target path for it.
	latin1, db string
	// html serves an HTML page; dead is a port nothing listens on.
	html, dead string
}

func sparse(t *testing.T, path string, size int64) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	return path
}

func hugeInputs(t *testing.T, tmp string) hugeFiles {
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<!doctype html><html><body>not an exporter</body></html>\n"))
	}))
	t.Cleanup(html.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	endless := filepath.Join(tmp, "endless-result")
	os.Mkdir(endless, 0o755)
	if err := os.Symlink("/dev/zero", filepath.Join(endless, "snapshot.json")); err != nil {
		t.Fatal(err)
	}
	latin1 := filepath.Join(tmp, "latin1-data")
	ldbctest.Write(t, latin1, ldbctest.With(ldbctest.Tiny, map[string][]string{
		ldbcfile.PersonPath: {"77|Ren\xe9|Latin|male|1985-01-02|2011-02-03T04:05:06.789+0000|1.2.3.4|Chrome"},
	}))
	res := filepath.Join(tmp, "huge-result")
	os.Mkdir(res, 0o755)
	sparse(t, filepath.Join(res, "summary.json"), bounded.ResultBytes+1)
	sparse(t, filepath.Join(res, "snapshot.json"), bounded.ResultBytes+1)
	return hugeFiles{
		config:       sparse(t, filepath.Join(tmp, "huge.yaml"), bounded.ConfigBytes+1),
		scenarioFile: sparse(t, filepath.Join(tmp, "huge-scenarios.yaml"), bounded.ConfigBytes+1),
		params:       sparse(t, filepath.Join(tmp, "huge.csv"), bounded.ParamsBytes+1),
		resultDir:    res,
		endlessDir:   endless,
		latin1:       latin1,
		db:           filepath.Join(tmp, "latin1.db"),
		html:         html.URL,
		dead:         dead,
	}
}

// guardRails2Rows are issue #25's rows of TestGuardRailsRefuse (helper A):
// size bounds, requests as typed, values that cannot be meant.
func guardRails2Rows(h hugeFiles) []struct {
	name string
	args []string
	want string
} {
	const dead = "http://127.0.0.1:1/"
	rows := []struct {
		name string
		args []string
		want string
	}{
		// Every input has a size bound.
		{"--config /dev/zero", []string{"run", "builtin.Noop", "--config", "/dev/zero"}, "/dev/zero is larger than 16 MiB"},
		{"--config huge", []string{"run", "builtin.Noop", "--config", h.config}, "is larger than 16 MiB"},
		{"--scenario-file huge", []string{"run", "go.Go1Step", "--scenario-file", h.scenarioFile, "-d", "1s"}, "is larger than 16 MiB"},
		{"--scenario-file endless", []string{"run", "go.Go1Step", "--scenario-file", "/dev/zero", "-d", "1s"}, "/dev/zero is larger than 16 MiB"},
		{"--params huge", []string{"run", "http.Request", "--target", dead, "--params", h.params, "--path", "/{{a}}", "-d", "1s"}, "is larger than 64 MiB"},
		{"report of a huge result", []string{"report", h.resultDir, "-o", filepath.Join(h.resultDir, "r.html")}, "is larger than 64 MiB"},
		{"compare of a huge result", []string{"compare", h.resultDir, h.resultDir}, "is larger than 64 MiB"},
		{"report of an endless result", []string{"report", h.endlessDir, "-o", filepath.Join(h.endlessDir, "r.html")}, `snapshot.json: invalid character '\x00'`},
		{"--params endless", []string{"run", "http.Request", "--target", dead, "--params", "/dev/zero", "--path", "/{{a}}", "-d", "1s"}, "/dev/zero: a line is larger than 1 MiB"},
		// Requests are what the user typed.
		{"header injection", []string{"run", "http.Request", "--target", dead, "-d", "1s", "--header", "X-A: a\r\nX-Injected: 1"}, "the value holds a line break"},
		{"path splitting a request", []string{"run", "http.Request", "--target", dead, "-d", "1s", "--path", "/a\r\nX-Evil: 1\r\n\r\nGET /b"}, "is not allowed in a request target"},
		{"method with a space", []string{"run", "http.Request", "--target", dead, "-d", "1s", "--method", "GE T"}, "is not allowed in a method"},
		{"header without a name", []string{"run", "http.Request", "--target", dead, "-d", "1s", "--header", ": novalue"}, "the name is empty"},
		{"--expect-status 999", []string{"run", "http.Request", "--target", dead, "-d", "1s", "--expect-status", "999"}, "HTTP status codes are 100 to 599"},
		// Values that cannot be meant.
		{"--cooldown -5s", []string{"run", "builtin.Noop", "-d", "1s", "--repeat", "2", "--cooldown", "-5s"}, "--cooldown -5s must not be negative"},
		{"--cooldown 1000h", []string{"run", "builtin.Noop", "-d", "1s", "--repeat", "2", "--cooldown", "1000h"}, "longer than the limit of 24h0m0s"},
		{"--stage 0s:0", []string{"run", "builtin.Noop", "--stage", "0s:0"}, "the stages last 0s in all"},
		{"--rate with per-vu-iterations", []string{"run", "builtin.Noop", "--executor", "per-vu-iterations", "-i", "5", "--rate", "10"}, "--rate only applies to constant-arrival-rate and ramping-arrival-rate, not per-vu-iterations"},
		{"--max-vus with ramping-vus", []string{"run", "builtin.Noop", "-s", "1s:2", "--max-vus", "50"}, "--max-vus only applies to"},
		{"-d 999999h", []string{"run", "builtin.Noop", "-d", "999999h"}, "longer than the limit of 168h0m0s (7 days)"},
		{"--rate 1000000000000", []string{"run", "builtin.Noop", "--rate", "1000000000000", "-d", "1s"}, "above the limit of 10000000"},
		{"--rate 1e12", []string{"run", "builtin.Noop", "--rate", "1e12", "-d", "1s"}, `invalid argument "1e12" for "--rate"`},
		{"--start-at 2099", []string{"run", "builtin.Noop", "-d", "1s", "--start-at", "2099-01-01T00:00:00Z"}, "days ahead; the limit is 7 days"},
		{"--tag scenario=override", []string{"run", "builtin.Noop", "-d", "1s", "--tag", "scenario=override"}, `"scenario" is a tag stampede sets itself`},
		{"--out json without a file", []string{"run", "builtin.Noop", "-d", "1s", "--out", "json"}, "--out json names the json output without its argument: give --out json=FILE"},
		{"--kill-node with only Kafka scenarios", []string{"run", "kafka.Produce", "-d", "1s", "--kill-node", "1s"}, "--kill-node is a flag of the nats family, and no scenario of it runs (families run: kafka)"},
		{"a family's flag without its scenarios", []string{"run", "builtin.Noop", "-d", "1s", "--topics", "2"}, "is a flag of the kafka family"},
		// Endpoints are checked at the start.
		{"--monitor of an HTML page", []string{"run", "builtin.Noop", "-d", "1s", "--monitor", "node=" + h.html + "/metrics"}, "serves no metric the monitor reads"},
		{"--monitor of a dead port", []string{"run", "builtin.Noop", "-d", "1s", "--monitor", "node=" + h.dead + "/metrics"}, "connection refused"},
		{"--out influxdb= a dead port", []string{"run", "builtin.Noop", "-d", "1s", "--out", "influxdb=" + h.dead + "/k6"}, "--out influxdb: InfluxDB at"},
		{"--out influxdb= an HTML page", []string{"run", "builtin.Noop", "-d", "1s", "--out", "influxdb=" + h.html + "/k6"}, "does not answer as InfluxDB"},
		// Data is UTF-8, for every target alike.
		{"load of a person file that is not UTF-8", []string{"load", "--target", "sqlite://" + h.db, "--data", h.latin1}, "person_0_0.csv line 10: firstname: not valid UTF-8"},
		// Unwritable outputs are bad input (exit 2) in every command.
		{"report -o unwritable", []string{"report", h.resultDir, "-o", "/proc/stampede/r.html"}, "-o /proc/stampede/r.html"},
		{"merge -o unwritable", []string{"merge", h.resultDir, h.resultDir, "-o", "/proc/stampede/merged"}, "-o /proc/stampede/merged"},
		{"manifest -o unwritable", []string{"k8s", "manifest", "-n", "2", "--image", "x", "-o", "/proc/stampede/job.yaml", "--", "builtin.Noop"}, "-o /proc/stampede/job.yaml"},
		// k8s manifest: Kubernetes' own rules.
		{"manifest --cpu -1", []string{"k8s", "manifest", "-n", "2", "--image", "x", "--cpu", "-1", "--", "builtin.Noop"}, `--cpu "-1": must be greater than or equal to 0`},
		{"manifest --namespace NS_bad", []string{"k8s", "manifest", "-n", "2", "--image", "x", "--namespace", "NS_bad", "--", "builtin.Noop"}, "a lowercase RFC 1123 label"},
		{"manifest --image 'x y'", []string{"k8s", "manifest", "-n", "2", "--image", "x y", "--", "builtin.Noop"}, `--image "x y" is not an image reference`},
		{"manifest --parallelism 100000000", []string{"k8s", "manifest", "-n", "100000000", "--image", "x", "--", "builtin.Noop"}, "at most 100000 pods"},
		{"manifest without run arguments", []string{"k8s", "manifest", "-n", "2", "--image", "x"}, "needs the run arguments after --"},
	}
	if pg := os.Getenv("STAMPEDE_TEST_POSTGRES"); pg != "" {
		rows = append(rows, struct {
			name string
			args []string
			want string
		}{"load of a person file that is not UTF-8 into PostgreSQL", []string{"load", "--target", pg, "--data", h.latin1, "--failed-rows", h.db + ".pg-failed.csv"}, "person_0_0.csv line 10: firstname: not valid UTF-8"})
	}
	return rows
}
