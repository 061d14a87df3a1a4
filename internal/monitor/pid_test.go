package monitor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// burner copies bash under a name of its own, so its processes are the
// only ones with that comm, and returns a command that burns about d of
// CPU and exits.
func burner(t *testing.T, name string) func(d time.Duration) *exec.Cmd {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(bash)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return func(d time.Duration) *exec.Cmd {
		us := strconv.FormatInt(d.Microseconds(), 10)
		return exec.Command(path, "-c", `end=$(( ${EPOCHREALTIME/./} + `+us+` )); while (( ${EPOCHREALTIME/./} < end )); do :; done`)
	}
}

// TestPIDByNameFollowsProcesses: --monitor pid=NAME counts processes that
// start after the first reading and keeps the CPU of those that exit, as a
// database's forked backends do. (Mutation caught: with the old lookup,
// which kept the first PID list until one exited and then gave no reading,
// the second read fails.)
func TestPIDByNameFollowsProcesses(t *testing.T) {
	const name = "stampburnzz"
	burn := burner(t, name)
	src, err := newProcSource(Spec{ID: "pid:" + name, Kind: KindPID, ProcName: name})
	if err != nil {
		t.Fatal(err)
	}

	first := burn(30 * time.Second) // lives through both readings
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = first.Process.Kill(); _ = first.Wait() }()
	time.Sleep(100 * time.Millisecond)
	r1, err := src.read()
	if err != nil {
		t.Fatal(err)
	}

	// A process that starts and exits between two readings.
	short := burn(400 * time.Millisecond)
	if err := short.Run(); err != nil {
		t.Fatal(err)
	}
	// One that starts and is still running at the next reading.
	late := burn(30 * time.Second)
	if err := late.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = late.Process.Kill(); _ = late.Wait() }()
	time.Sleep(300 * time.Millisecond)
	r2, err := src.read()
	if err != nil {
		t.Fatalf("second reading: %v", err)
	}
	if r2.gauges[ProcThreads] < 2 {
		t.Errorf("threads %v: the late process is not counted", r2.gauges[ProcThreads])
	}
	// The counter never goes back, and it grew by the live ones' CPU.
	if r2.counters["proc_cpu"] < r1.counters["proc_cpu"] {
		t.Errorf("cpu went back: %v then %v", r1.counters["proc_cpu"], r2.counters["proc_cpu"])
	}

	// The first one exits: its CPU stays in the total.
	_ = first.Process.Kill()
	_ = first.Wait()
	r3, err := src.read()
	if err != nil {
		t.Fatalf("third reading: %v", err)
	}
	if r3.counters["proc_cpu"] < r2.counters["proc_cpu"] {
		t.Errorf("cpu went back after an exit: %v then %v", r2.counters["proc_cpu"], r3.counters["proc_cpu"])
	}
	if r3.gauges[ProcThreads] != 1 {
		t.Errorf("threads after the exit: %v, want 1", r3.gauges[ProcThreads])
	}
}
