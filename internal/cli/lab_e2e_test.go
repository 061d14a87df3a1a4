package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/lab"
	"github.com/stampede-bench/stampede/internal/labrun"
)

// labHostState is what a lab must leave as it found it: the host's lab
// namespaces, links, lab cgroups and processes that mention dir. Only
// labs with generated ids (they start with a digit) count: the lab
// package's tests, which may run at the same time, name theirs t1…, and
// preflight probes are stl-probe….
var generatedLab = regexp.MustCompile(`^(stl-|stampede-lab-)[0-9]`)

func labHostState(t *testing.T, dir string) string {
	t.Helper()
	ns, _ := exec.Command("ip", "netns", "list").Output()
	var keep []string
	for _, l := range strings.Split(string(ns), "\n") {
		if generatedLab.MatchString(l) {
			keep = append(keep, l)
		}
	}
	links, err := exec.Command("ip", "-br", "link").Output()
	if err != nil {
		t.Fatal(err)
	}
	m, _ := lab.FindCgroupMounts()
	var cgs []string
	for _, d := range []string{m.CPU, m.CPUAcct} {
		es, _ := filepath.Glob(filepath.Join(d, "stampede-lab-*"))
		for _, e := range es {
			if generatedLab.MatchString(filepath.Base(e)) {
				cgs = append(cgs, e)
			}
		}
	}
	var procs []string
	ps, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range ps {
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(dir)) {
			procs = append(procs, p+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	sort.Strings(keep)
	sort.Strings(cgs)
	return "netns: " + strings.Join(keep, ",") + "\nlinks:\n" + string(links) + "cgroups: " + strings.Join(cgs, ",") + "\nprocs: " + strings.Join(procs, "; ")
}

func requireLabRoot(t *testing.T) {
	t.Helper()
	if err := lab.Preflight(context.Background(), lab.Needs{}); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the lab must run in CI (root is available there): %v", err)
		}
		t.Skipf("needs root: %v", err)
	}
}

func readLab(t *testing.T, dir string) *labrun.Result {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "lab.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r labrun.Result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// The lab for real, at a small size: link-bound nodes reach what their
// link allows, the verdict says so, a too small client fleet is named,
// Ctrl+C stops it and nothing is left behind.
func TestLabE2E(t *testing.T) {
	requireLabRoot(t)
	bin := buildStampede(t)
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	run := func(t *testing.T, args ...string) (int, string, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append([]string{"lab"}, args...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errb.String()
	}
	before := labHostState(t, tmp)

	t.Run("link-bound nodes reach their link", func(t *testing.T) {
		out := filepath.Join(tmp, "nodes")
		code, stdout, stderr := run(t, "nodes", "--nodes", "1,2", "--link", "10mbit", "--window", "4s", "--out", out, "--data-dir", data)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		t.Log(stdout)
		r := readLab(t, out)
		s := r.Series[0]
		if len(s.Points) != 2 || s.Fit == nil {
			t.Fatalf("series %+v", s)
		}
		for _, p := range s.Points {
			st := p.Step
			if p.Err != "" || st == nil {
				t.Fatalf("step %g failed: %s", p.X, p.Err)
			}
			if st.Bound != labrun.BoundNodeLink {
				t.Errorf("nodes=%g: bound %q (%s), want the node link", p.X, st.Bound, st.Why)
			}
			for _, h := range st.Hosts {
				if h.Role == labrun.RoleNode && (h.TPS < 0.9*st.LinkTPS || h.TPS > 1.1*st.LinkTPS) {
					t.Errorf("nodes=%g: %s acked %.0f msgs/s, the link allows %.0f after framing", p.X, h.Name, h.TPS, st.LinkTPS)
				}
				if h.Role == labrun.RoleNode && h.Leaders < 1 {
					t.Errorf("nodes=%g: %s leads no stream", p.X, h.Name)
				}
			}
			// A guard against start-up waiting on timeouts (an election
			// that never comes, a stream created twice), not a speed
			// figure: each node has a quarter of a core, and under CI's
			// load a 2-node start took 8.5 s.
			if st.Nodes == 2 && st.StartUp >= 20 {
				t.Errorf("a 2-node lab took %.1fs to start", st.StartUp)
			}
		}
		for _, f := range []string{"report.html", "steps.csv", "report.txt"} {
			if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
				t.Errorf("%s: %v", f, err)
			}
		}
		html, _ := os.ReadFile(filepath.Join(out, "report.html"))
		if !bytes.Contains(html, []byte("StampedeChart")) || !bytes.Contains(html, []byte("model: nodes")) {
			t.Error("report.html has no chart of TPS vs nodes beside the model")
		}
		if !strings.Contains(stdout, "49000") || !strings.Contains(stdout, "R² =") {
			t.Errorf("console report lacks the fit or the seed's scale-up:\n%s", stdout)
		}
	})

	t.Run("too few clients names the client", func(t *testing.T) {
		out := filepath.Join(tmp, "clients")
		code, stdout, stderr := run(t, "clients", "--nodes", "2", "--clients", "1", "--window", "3s", "--out", out, "--data-dir", data)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		st := readLab(t, out).Series[0].Points[0].Step
		if st == nil || st.Bound != labrun.BoundClientLink {
			t.Fatalf("one client for two nodes: bound %+v", st)
		}
	})

	t.Run("Ctrl+C stops it and removes everything", func(t *testing.T) {
		out := filepath.Join(tmp, "interrupted")
		cmd := exec.Command(bin, "lab", "nodes", "--nodes", "2", "--window", "60s", "--out", out, "--data-dir", data)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		r, w, _ := os.Pipe()
		cmd.Stdout = w
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		defer r.Close()
		deadline := time.Now().Add(60 * time.Second)
		for !strings.Contains(errb.String(), "stream(s) led") && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(3 * time.Second) // generators running
		_ = cmd.Process.Signal(syscall.SIGINT)
		t0 := time.Now()
		err := cmd.Wait()
		took := time.Since(t0)
		ee, _ := err.(*exec.ExitError)
		if ee == nil || ee.ExitCode() != ExitInterrupted {
			t.Errorf("exit %v after Ctrl+C, want %d\n%s", err, ExitInterrupted, errb.String())
		}
		if took > 3*time.Second {
			t.Errorf("Ctrl+C took %v", took)
		}
	})

	if after := labHostState(t, tmp); after != before {
		t.Errorf("the lab left something behind:\nbefore %s\nafter  %s", before, after)
	}

	t.Run("bad input and a missing privilege exit 2 with one line", func(t *testing.T) {
		for _, args := range [][]string{
			{"--link", "fast"},
			{"--profile", "reliable"},
			{"nodes", "--nodes", "0"},
			{"clients", "--nodes", "1", "--profile", "high-reliability"},
			{"sideways"},
			{"nodes", "--clients", "3"},
		} {
			code, _, stderr := run(t, args...)
			if code != ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
			}
		}
		if lab.Preflight(context.Background(), lab.Needs{Netem: true}) != nil {
			code, _, stderr := run(t, "--delay", "1ms", "--nodes", "1")
			if code != ExitUsage || !strings.Contains(stderr, "netem") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("--delay without netem: exit %d, %q", code, stderr)
			}
		}
		// nobody must be able to reach the binary.
		for d := filepath.Dir(bin); d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
			_ = os.Chmod(d, 0o755)
		}
		cmd := exec.Command(bin, "lab", "--nodes", "1", "--out", filepath.Join(tmp, "nobody"))
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		cmd.Dir = "/"
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		ee, _ := err.(*exec.ExitError)
		if ee == nil || ee.ExitCode() != ExitUsage || !strings.Contains(errb.String(), "root") || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
			t.Errorf("as nobody: %v, %q", err, errb.String())
		}
	})
}
