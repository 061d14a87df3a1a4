//go:build linux

package profile

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCmdCollectorFailsBeforeScenario: a profiler that fails at start is
// reported by Start, before the scenario runs, never after it. (Mutation
// caught: with Start returning as soon as the shell is started, Start
// gives nil and the failure only shows in Stop.)
func TestCmdCollectorFailsBeforeScenario(t *testing.T) {
	for _, tc := range []struct {
		name, command, want string
	}{
		{"shell command", `echo "cannot open device" >&2; exit 3`, "exited before the scenario started: exit status 3; stderr: cannot open device"},
		{"perf that never attaches", `perf() { sleep 30; }; perf record -p {pid} -o {out}`, "perf did not attach within 300ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &CmdCollector{Command: tc.command, PID: strconv.Itoa(os.Getpid()), Settle: 2 * time.Second, AttachTimeout: 300 * time.Millisecond}
			start := time.Now()
			err := c.Start(context.Background(), Scope{Scenario: "s", Dir: t.TempDir()})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Start = %v, want it to contain %q", err, tc.want)
			}
			if d := time.Since(start); d > 1500*time.Millisecond && tc.name == "shell command" {
				t.Errorf("an early failure took %v to report (it should not wait out the settle time)", d)
			}
			if c.run != nil {
				t.Error("a failed Start left a command recorded")
			}
		})
	}
}

// TestCmdCollectorWaitsForPerf: with real perf, Start returns only once
// perf holds its perf events on the target, so the scenario's first
// operation is sampled; a perf that cannot start is an error before the
// scenario. (Mutation caught: without the wait, the target has no perf
// event attached when Start returns.) Needs perf (Debian linux-perf);
// scripts/test.sh installs it.
func TestCmdCollectorWaitsForPerf(t *testing.T) {
	if _, err := exec.LookPath("perf"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("perf is not installed (scripts/test.sh installs linux-perf)")
		}
		t.Skip("perf not installed")
	}
	target := exec.Command("sleep", "30")
	if err := target.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = target.Process.Kill(); _ = target.Wait() }()
	dir := t.TempDir()

	bad := &CmdCollector{Command: `perf record -e no_such_event_zz -p {pid} -o {out}`, PID: strconv.Itoa(target.Process.Pid)}
	if err := bad.Start(context.Background(), Scope{Scenario: "bad", Dir: dir}); err == nil || !strings.Contains(err.Error(), "exited before the scenario started") {
		t.Fatalf("a perf with an unknown event: Start = %v", err)
	}

	c := &CmdCollector{Command: `perf record -e cpu-clock -p {pid} -o {out}`, PID: strconv.Itoa(target.Process.Pid)}
	if err := c.Start(context.Background(), Scope{Scenario: "s", Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if n := perfEventFDs(c.run.cmd.Process.Pid); n == 0 {
		t.Error("Start returned before perf held any perf event")
	}
	files, err := c.Stop(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || filepath.Base(files[0]) != "s.perf.data" {
		t.Errorf("files %v", files)
	}
}

// TestProcessTree: pid=tree:NAME covers a server and the workers it forked.
func TestProcessTree(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(bash)
	if err != nil {
		t.Fatal(err)
	}
	const name = "stamptreezz"
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	server := exec.Command(path, "-c", "sleep 30 & sleep 30 & wait")
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = exec.Command("pkill", "-P", strconv.Itoa(server.Process.Pid)).Run()
		_ = server.Process.Kill()
		_ = server.Wait()
	}()
	var pids []int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if pids, err = processTree(name); err == nil && len(pids) == 3 {
			break
		}
	}
	if len(pids) != 3 || !slices.Contains(pids, server.Process.Pid) {
		t.Fatalf("tree of %s = %v (err %v), want the server %d and its two children", name, pids, err, server.Process.Pid)
	}
	if _, err := processTree("no-such-proc-zz"); err == nil {
		t.Error("a name with no process gave a tree")
	}
	c, err := ParseSpecEnv("cmd=perf record -p {pid} -o {out};pid=tree:"+name, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cc := c.(*CmdCollector); cc.Tree != name {
		t.Errorf("Tree = %q", cc.Tree)
	}
	if _, err := ParseSpecEnv("cmd=perf record -p {pid};pid=tree:a b", func(string) string { return "" }); err == nil {
		t.Error("a bad tree name was accepted")
	}
}

// TestProcessTreeLeavesOutExited: a worker that has exited but is not yet
// reaped (a zombie) cannot be profiled, and perf -p fails on the whole list
// if it is named ("No such process"): it is left out. (Mutation caught:
// without the state check the zombie is in the list.)
func TestProcessTreeLeavesOutExited(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	const name = "stampzombzz"
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	// bash starts a child that exits after 0.3 s, then becomes the server,
	// which never reaps it.
	server := exec.Command("bash", "-c", "sleep 0.3 & exec "+path+" 30")
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = server.Process.Kill(); _ = server.Wait() }()
	var zombie bool
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && !zombie; time.Sleep(20 * time.Millisecond) {
		for _, p := range processes() {
			if p.ppid == server.Process.Pid && p.exiting {
				zombie = true
			}
		}
	}
	if !zombie {
		t.Fatal("no unreaped child appeared")
	}
	pids, err := processTree(name)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pids, []int{server.Process.Pid}) {
		t.Errorf("tree = %v, want only the server %d", pids, server.Process.Pid)
	}
}
