package monitor

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/prometheus/procfs"
)

// procSource reads local processes from /proc: one PID, or every process
// whose command name (comm) is name, found again when they come and go.
type procSource struct {
	fs   procfs.FS
	pid  int
	name string
	pids []int
}

func newProcSource(sp Spec) (*procSource, error) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return nil, fmt.Errorf("--monitor %s: %w", sp.ID, err)
	}
	return &procSource{fs: fs, pid: sp.PID, name: sp.ProcName}, nil
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
	if p.pid > 0 {
		r := newReading(time.Now())
		if err := p.add(r, p.pid); err != nil {
			return nil, err
		}
		return r, nil
	}
	if len(p.pids) == 0 {
		pids, err := p.find()
		if err != nil {
			return nil, err
		}
		p.pids = pids
	}
	r := newReading(time.Now())
	for _, pid := range p.pids {
		if err := p.add(r, pid); err != nil {
			// One has gone: look them up again next time, and give no
			// rate for this interval (the sum would jump).
			p.pids = nil
			return nil, fmt.Errorf("process %d of %s: %w", pid, p.name, err)
		}
	}
	if len(p.pids) == 0 {
		return nil, fmt.Errorf("no process named %s", p.name)
	}
	return r, nil
}

func (p *procSource) add(r *reading, pid int) error {
	pr, err := p.fs.Proc(pid)
	if err != nil {
		return errors.New("process has exited")
	}
	st, err := pr.Stat()
	if err != nil {
		return errors.New("process has exited")
	}
	r.counters["proc_cpu"] += st.CPUTime()
	r.gauges[ProcRSS] += float64(st.ResidentMemory())
	r.gauges[ProcThreads] += float64(st.NumThreads)
	r.gauges[CPUCores] = float64(runtime.NumCPU())
	return nil
}
