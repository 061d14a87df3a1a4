package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Defaults of the attach wait (CmdCollector.Start).
const (
	// DefaultAttachTimeout is how long Start waits for a perf command to
	// hold its perf events: 10 s.
	DefaultAttachTimeout = 10 * time.Second
	// DefaultSettle is how long Start watches any other command for an
	// early exit before the scenario starts: 500 ms.
	DefaultSettle = 500 * time.Millisecond
	// attachQuiet is how long the count of perf event descriptors must
	// stay the same before the profiler counts as attached (perf -p opens
	// one per thread and CPU, in turn).
	attachQuiet = 150 * time.Millisecond
)

// procRoot is where the process table is read; a field of nothing, a
// constant of the package (tests use the real /proc).
const procRoot = "/proc"

// usesPerf reports whether command runs perf, whose attachment Start can
// confirm by the perf event descriptors it holds.
func usesPerf(command string) bool {
	for _, w := range strings.Fields(command) {
		if filepath.Base(w) == "perf" {
			return true
		}
	}
	return false
}

// perfEventFDs counts the perf event file descriptors held by the
// processes of process group pgid.
func perfEventFDs(pgid int) int {
	n := 0
	for _, pid := range groupMembers(pgid) {
		fds, err := os.ReadDir(filepath.Join(procRoot, strconv.Itoa(pid), "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join(procRoot, strconv.Itoa(pid), "fd", fd.Name())); err == nil && l == "anon_inode:[perf_event]" {
				n++
			}
		}
	}
	return n
}

// procInfo is what the process table says of one process.
type procInfo struct {
	pid, ppid, pgrp int
	comm            string
	// exiting is a process that has exited and waits to be reaped (state
	// Z or X): it can no longer be profiled.
	exiting bool
}

// processes reads every process's pid, parent, process group and comm
// from /proc/PID/stat. Processes that vanish while it reads are left out.
func processes() []procInfo {
	ents, err := os.ReadDir(procRoot)
	if err != nil {
		return nil
	}
	var out []procInfo
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(procRoot, e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and ')'.
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(s[close+1:])
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgrp, _ := strconv.Atoi(f[2])
		out = append(out, procInfo{pid: pid, ppid: ppid, pgrp: pgrp, comm: s[open+1 : close], exiting: f[0] == "Z" || f[0] == "X"})
	}
	return out
}

// groupMembers lists the processes of process group pgid.
func groupMembers(pgid int) []int {
	var out []int
	for _, p := range processes() {
		if p.pgrp == pgid {
			out = append(out, p.pid)
		}
	}
	return out
}

// processTree lists, sorted, every process whose comm is name (compared on
// the 15 bytes the kernel keeps) and all their descendants: a server and
// the workers it forked, such as PostgreSQL's postmaster and backends.
// Processes that have exited and wait to be reaped are left out.
func processTree(name string) ([]int, error) {
	if len(name) > 15 {
		name = name[:15]
	}
	procs := processes()
	children := map[int][]int{}
	var roots []int
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p.pid)
		if p.comm == name {
			roots = append(roots, p.pid)
		}
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("pid=tree:%s: no process named %s (the name ps -o comm shows)", name, name)
	}
	seen := map[int]bool{}
	for len(roots) > 0 {
		pid := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		roots = append(roots, children[pid]...)
	}
	exiting := map[int]bool{}
	for _, p := range procs {
		if p.exiting {
			exiting[p.pid] = true
		}
	}
	out := make([]int, 0, len(seen))
	for pid := range seen {
		if !exiting[pid] {
			out = append(out, pid)
		}
	}
	sort.Ints(out)
	return out, nil
}

// joinPIDs writes pids as perf -p takes them: 1,2,3.
func joinPIDs(pids []int) string {
	s := make([]string, len(pids))
	for i, p := range pids {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ",")
}
