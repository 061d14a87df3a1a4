// Package monitortest starts Debian's prometheus-node-exporter and
// prometheus-process-exporter for tests: real exporters on free loopback
// ports, stopped when the test ends.
package monitortest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/testenv"
)

// Where Debian's prometheus-node-exporter and prometheus-process-exporter
// packages put their binaries.
const (
	NodeExporterBin    = "/usr/bin/prometheus-node-exporter"
	ProcessExporterBin = "/usr/bin/prometheus-process-exporter"
)

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
	return start(t, NodeExporterBin, "prometheus-node-exporter", func(addr string) []string {
		// No collectors that read other services or files of this machine's
		// configuration; the host ones stampede derives from stay on.
		return []string{"--web.listen-address=" + addr, "--no-collector.textfile", "--no-collector.systemd"}
	})
}

// StartProcessExporter starts process-exporter on a free loopback port,
// watching the processes named procnames (comm), one group per name.
func StartProcessExporter(t testing.TB, procnames ...string) *Exporter {
	t.Helper()
	return start(t, ProcessExporterBin, "prometheus-process-exporter", func(addr string) []string {
		return []string{"-web.listen-address=" + addr, "-procnames=" + strings.Join(procnames, ","), "-recheck", "-gather-smaps=false"}
	})
}

func start(t testing.TB, bin, pkg string, args func(addr string) []string) *Exporter {
	t.Helper()
	if _, err := os.Stat(bin); err != nil {
		testenv.Missing(t, "%s is missing: apt-get install %s (scripts/test.sh does)", bin, pkg)
	}
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		addr := "127.0.0.1:" + strconv.Itoa(port)
		cmd := exec.Command(bin, args(addr)...)
		if err := cmd.Start(); err != nil {
			t.Fatalf("start %s: %v", bin, err)
		}
		e := &Exporter{URL: "http://" + addr + "/metrics", cmd: cmd, exited: make(chan struct{})}
		go func() { _ = cmd.Wait(); close(e.exited) }()
		t.Cleanup(e.Stop)
		if e.wait(10 * time.Second) {
			return e
		}
		e.Stop()
	}
	t.Fatalf("%s did not answer on a loopback port", bin)
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
