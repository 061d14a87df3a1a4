// Package monitortest starts Debian's prometheus-node-exporter for tests:
// a real exporter on a free loopback port, stopped when the test ends.
package monitortest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// NodeExporterBin is where Debian's prometheus-node-exporter package puts
// the binary.
const NodeExporterBin = "/usr/bin/prometheus-node-exporter"

// Exporter is a running node_exporter.
type Exporter struct {
	// URL is its metrics endpoint, http://127.0.0.1:PORT/metrics.
	URL    string
	cmd    *exec.Cmd
	exited chan struct{}
}

// StartNodeExporter starts node_exporter on a free loopback port and waits
// until it answers. Without the binary the test fails under CI=true and is
// skipped elsewhere.
func StartNodeExporter(t testing.TB) *Exporter {
	t.Helper()
	if _, err := os.Stat(NodeExporterBin); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: apt-get install prometheus-node-exporter (scripts/test.sh does)", NodeExporterBin)
		}
		t.Skipf("%s is missing: apt-get install prometheus-node-exporter", NodeExporterBin)
	}
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		addr := "127.0.0.1:" + strconv.Itoa(port)
		cmd := exec.Command(NodeExporterBin, "--web.listen-address="+addr,
			// No collectors that read other services or files of this machine's
			// configuration; the host ones stampede derives from stay on.
			"--no-collector.textfile", "--no-collector.systemd")
		if err := cmd.Start(); err != nil {
			t.Fatalf("start node_exporter: %v", err)
		}
		e := &Exporter{URL: "http://" + addr + "/metrics", cmd: cmd, exited: make(chan struct{})}
		go func() { _ = cmd.Wait(); close(e.exited) }()
		t.Cleanup(e.Stop)
		if e.wait(10 * time.Second) {
			return e
		}
		e.Stop()
	}
	t.Fatal("node_exporter did not answer on a loopback port")
	return nil
}

func (e *Exporter) wait(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		resp, err := http.Get(e.URL)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return true
			}
		}
		select {
		case <-e.exited:
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
	return false
}

// Stop kills the exporter (as a crash would) and waits for it; later
// calls do nothing.
func (e *Exporter) Stop() {
	select {
	case <-e.exited:
		return
	default:
	}
	_ = e.cmd.Process.Kill()
	<-e.exited
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// PID is the exporter's process id (for pid= sources).
func (e *Exporter) PID() int { return e.cmd.Process.Pid }
