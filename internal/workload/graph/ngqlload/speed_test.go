package ngqlload

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/cputime"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
)

// standInEnv makes the test binary serve a stand-in graphd (its address
// on stdout, until stdin closes) instead of running tests, so that
// TestLoadSpeed measures the loader's CPU apart from the server's.
const standInEnv = "STAMPEDE_NGQLLOAD_STANDIN"

// speedEnv names the data set TestLoadSpeed loads (bench/ngql_load.sh);
// unset, the test is skipped.
const speedEnv = "STAMPEDE_NGQLLOAD_SPEED_DATA"

func TestMain(m *testing.M) {
	if os.Getenv(standInEnv) == "1" {
		srv, err := nebulatest.Start(nebulatest.NewStore(), nebulatest.Options{})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println(srv.Addr())
		bufio.NewReader(os.Stdin).ReadString('\n')
		srv.Close()
		return
	}
	os.Exit(m.Run())
}

// TestLoadSpeed loads the data set of $STAMPEDE_NGQLLOAD_SPEED_DATA into a
// stand-in graphd in another process, and (its peer in the same round)
// makes the same statements in a dry run to io.Discard: rows/s, the
// client's CPU per row (this process), the server's (the other one).
func TestLoadSpeed(t *testing.T) {
	data := os.Getenv(speedEnv)
	if data == "" {
		t.Skip("set " + speedEnv + " to a data set (bench/ngql_load.sh)")
	}
	// Dry run: reading, checking and formatting only.
	c0, w0 := cputime.Process(), time.Now()
	st, err := Load(t.Context(), Config{Target: "nebula://root:nebula@127.0.0.1:1/speed", Data: data, DryRun: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	rows := int64(0)
	for _, n := range st.Counts {
		rows += n
	}
	report("dry-run", rows, time.Since(w0), cputime.Process()-c0, 0)

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv := exec.Command(self, "-test.run", "^$")
	srv.Env = append(os.Environ(), standInEnv+"=1")
	stdin, _ := srv.StdinPipe()
	stdout, _ := srv.StdoutPipe()
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	addr, _ := bufio.NewReader(stdout).ReadString('\n')
	addr = strings.TrimSpace(addr)
	if strings.HasPrefix(addr, "error") || addr == "" {
		t.Fatalf("stand-in: %q", addr)
	}
	c0, w0 = cputime.Process(), time.Now()
	st, err = Load(t.Context(), Config{Target: "nebula://root:nebula@" + addr + "/speed", Data: data})
	wall, client := time.Since(w0), cputime.Process()-c0
	stdin.Close()
	srv.Wait()
	if err != nil {
		t.Fatal(err)
	}
	server := time.Duration(0)
	if ru, ok := srv.ProcessState.SysUsage().(*syscall.Rusage); ok {
		server = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		defer fmt.Printf("stand-in peak RSS %d MB\n", ru.Maxrss/1024)
	}
	report("stand-in", rows, wall, client, server)
	if st.Failed != 0 {
		t.Errorf("%d rows failed", st.Failed)
	}
}

func report(what string, rows int64, wall, client, server time.Duration) {
	fmt.Printf("%-9s %9d rows %8.2fs %9.0f rows/s  client %6.2f cpu-µs/row", what, rows, wall.Seconds(), float64(rows)/wall.Seconds(),
		float64(client.Microseconds())/float64(rows))
	if server > 0 {
		fmt.Printf("  server %6.2f cpu-µs/row", float64(server.Microseconds())/float64(rows))
	}
	fmt.Printf("  client peak RSS %s\n", peakRSS())
}

// peakRSS is this process's peak resident set (VmHWM) so far.
func peakRSS() string {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return "?"
}
