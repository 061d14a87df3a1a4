package loader

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/progress"
)

// reportEvery is how often a meter reports progress.
const reportEvery = 200 * time.Millisecond

// meter counts the data rows read (each pass counts every row once) and
// reports them to Config.Progress from its own goroutine every
// reportEvery; a nil *meter does nothing.
type meter struct {
	rows   atomic.Int64
	total  int64
	report progress.Func
	stop   chan struct{}
	done   sync.WaitGroup
	once   sync.Once
}

// newMeter counts the data rows of files (a fast newline count), times
// passes (the validation pass reads every row before the load pass), sends
// a first report and starts reporting; a nil report gives a nil meter.
func newMeter(report progress.Func, dir string, files []string, passes int) *meter {
	if report == nil {
		return nil
	}
	var total int64
	for _, f := range files {
		total += countLines(filepath.Join(dir, filepath.FromSlash(f))) - 1
	}
	m := &meter{total: max(total*int64(passes), 0), report: report, stop: make(chan struct{})}
	report(progress.Report{Total: m.total})
	m.done.Add(1)
	go m.run()
	return m
}

func (m *meter) run() {
	defer m.done.Done()
	tick := time.NewTicker(reportEvery)
	defer tick.Stop()
	last := int64(0)
	for {
		select {
		case <-m.stop:
			return
		case <-tick.C:
			if n := m.rows.Load(); n != last {
				last = n
				m.report(progress.Report{Done: n, Total: m.total})
			}
		}
	}
}

func (m *meter) add(n int64) {
	if m != nil {
		m.rows.Add(n)
	}
}

// finish stops reporting and sends the Final report; later calls do
// nothing.
func (m *meter) finish() {
	if m == nil {
		return
	}
	m.once.Do(func() {
		close(m.stop)
		m.done.Wait()
		m.report(progress.Report{Done: m.rows.Load(), Total: m.total, Final: true})
	})
}

// countLines counts the lines of a file (0 when it cannot be read).
func countLines(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	var n int64
	last := byte('\n')
	for {
		k, err := f.Read(buf)
		if k > 0 {
			n += int64(bytes.Count(buf[:k], []byte{'\n'}))
			last = buf[k-1]
		}
		if err != nil {
			break
		}
	}
	if last != '\n' {
		n++
	}
	return n
}
