// Package servertest starts real Prometheus and InfluxDB 1.x servers (the
// Debian packages) for output tests: each on a free loopback port with a
// temporary data directory, stopped when the test ends. Outside CI a
// missing binary skips the test; with CI=true it fails it.
package servertest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/testenv"
)

// need returns the path of binary, or skips/fails the test without it.
func need(t testing.TB, binary, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(binary)
	if err != nil {
		testenv.Missing(t, "%s not installed (Debian package %s; scripts/test.sh installs it)", binary, pkg)
	}
	return p
}

// FreePort returns a loopback address with a free port.
func FreePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// start runs cmd until the test ends and waits until url answers 2xx.
func start(t testing.TB, cmd *exec.Cmd, url string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "server.log")
	lf, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = lf, lf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		lf.Close()
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			b, _ := os.ReadFile(log)
			t.Fatalf("%s exited: %s", cmd.Path, b)
		default:
		}
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	b, _ := os.ReadFile(log)
	t.Fatalf("%s did not become ready: %s", cmd.Path, b)
}

// Prometheus starts a Prometheus server with its remote-write receiver
// and returns its base URL (http://127.0.0.1:PORT).
func Prometheus(t testing.TB) string {
	t.Helper()
	return PrometheusWith(t, "global:\n  scrape_interval: 1m\n")
}

// PrometheusWith starts a Prometheus server with config (YAML) and extra
// flags (e.g. --enable-feature=native-histograms), its remote-write
// receiver on, and returns its base URL.
func PrometheusWith(t testing.TB, config string, flags ...string) string {
	t.Helper()
	bin := need(t, "prometheus", "prometheus")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := FreePort(t)
	args := append([]string{"--config.file=" + cfg, "--storage.tsdb.path=" + filepath.Join(dir, "data"),
		"--web.listen-address=" + addr, "--web.enable-remote-write-receiver", "--log.level=warn"}, flags...)
	cmd := exec.Command(bin, args...)
	base := "http://" + addr
	start(t, cmd, base+"/-/ready")
	return base
}

// InfluxDB starts an InfluxDB 1.x server (HTTP API only, no auth) and
// returns its base URL.
func InfluxDB(t testing.TB) string {
	t.Helper()
	bin := need(t, "influxd", "influxdb")
	dir := t.TempDir()
	httpAddr, bindAddr := FreePort(t), FreePort(t)
	cfg := fmt.Sprintf(`reporting-disabled = true
bind-address = %q
[meta]
  dir = %q
[data]
  dir = %q
  wal-dir = %q
  query-log-enabled = false
[http]
  enabled = true
  bind-address = %q
  log-enabled = false
[monitor]
  store-enabled = false
[subscriber]
  enabled = false
[continuous_queries]
  enabled = false
`, bindAddr, filepath.Join(dir, "meta"), filepath.Join(dir, "data"), filepath.Join(dir, "wal"), httpAddr)
	path := filepath.Join(dir, "influxdb.conf")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-config", path)
	base := "http://" + httpAddr
	start(t, cmd, base+"/ping")
	return base
}
