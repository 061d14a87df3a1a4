package monitor

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/prometheus/procfs"
)

// procSource reads local processes from /proc: one PID, or every process
// whose command name (comm) is name. With a name, the processes are looked
// up again at every reading, so processes that start during the run (a
// database's forked backends) are counted from their start, and the CPU of
// those that exit stays in the total: the CPU counter never goes back.
type procSource struct {
	fs   procfs.FS
	pid  int
	name string

	// seen is the last CPU time (s) of each live process of name, keyed
	// by PID and start time (a reused PID is another process).
	seen map[procKey]float64
	// gone is the CPU time (s) of processes of name that have exited.
	gone float64
}

// procKey names one process: a PID and its start time in clock ticks.
type procKey struct {
	pid   int
	start uint64
}

func newProcSource(sp Spec) (*procSource, error) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return nil, fmt.Errorf("--monitor %s: %w", sp.ID, err)
	}
	return &procSource{fs: fs, pid: sp.PID, name: sp.ProcName, seen: map[procKey]float64{}}, nil
}

// Check reports, before the run, whether the source names a process that
// exists now.
func (p *procSource) check() error {
	if p.pid > 0 {
		if _, err := p.fs.Proc(p.pid); err != nil {
			return fmt.Errorf("--monitor pid=%d: no such process", p.pid)
		}
		return nil
	}
	pids, err := p.find()
	if err != nil {
		return err
	}
	if len(pids) == 0 {
		return fmt.Errorf("--monitor pid=%s: no process named %s (the name ps -o comm shows)", p.name, p.name)
	}
	return nil
}

// find lists the PIDs whose comm is p.name (compared on the 15 bytes the
// kernel keeps).
func (p *procSource) find() ([]int, error) {
	procs, err := p.fs.AllProcs()
	if err != nil {
		return nil, err
	}
	want := p.name
	if len(want) > 15 {
		want = want[:15]
	}
	var out []int
	for _, pr := range procs {
		if c, err := pr.Comm(); err == nil && c == want {
			out = append(out, pr.PID)
		}
	}
	return out, nil
}

func (p *procSource) read() (*reading, error) {
	r := newReading(time.Now())
	r.gauges[CPUCores] = float64(runtime.NumCPU())
	if p.pid > 0 {
		st, err := p.stat(p.pid)
		if err != nil {
			return nil, err
		}
		r.counters["proc_cpu"] = st.CPUTime()
		r.gauges[ProcRSS] = float64(st.ResidentMemory())
		r.gauges[ProcThreads] = float64(st.NumThreads)
		return r, nil
	}
	pids, err := p.find()
	if err != nil {
		return nil, err
	}
	live := make(map[procKey]float64, len(pids))
	for _, pid := range pids {
		st, err := p.stat(pid)
		if err != nil {
			continue // exited between the listing and the read: its last figure is in seen
		}
		live[procKey{pid, st.Starttime}] = st.CPUTime()
		r.gauges[ProcRSS] += float64(st.ResidentMemory())
		r.gauges[ProcThreads] += float64(st.NumThreads)
	}
	for k, cpu := range p.seen {
		if _, ok := live[k]; !ok {
			p.gone += cpu
		}
	}
	p.seen = live
	total := p.gone
	for _, cpu := range live {
		total += cpu
	}
	r.counters["proc_cpu"] = total
	if len(live) == 0 {
		return nil, fmt.Errorf("no process named %s", p.name)
	}
	return r, nil
}

// stat reads one process's /proc/PID/stat.
func (p *procSource) stat(pid int) (procfs.ProcStat, error) {
	pr, err := p.fs.Proc(pid)
	if err != nil {
		return procfs.ProcStat{}, errors.New("process has exited")
	}
	st, err := pr.Stat()
	if err != nil {
		return procfs.ProcStat{}, errors.New("process has exited")
	}
	return st, nil
}
