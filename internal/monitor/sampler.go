package monitor

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// File is the per-second series of the monitored sources in a result
// directory: one JSON Sample per line, in the order they were taken.
const File = "monitor.jsonl"

// Options tune Start. Zero values take the defaults.
type Options struct {
	// Interval between readings of each source; default 1s.
	Interval time.Duration
	// Timeout of one HTTP scrape; default twice Interval. A reading that
	// is still under way when the next is due makes that one wait.
	Timeout time.Duration
	// Client does the HTTP scrapes; default a client of its own (no
	// compression: parsing plain text is cheaper than inflating it).
	Client *http.Client
}

// Monitor samples its sources until Stop. Latest, Counts and Subscribe are
// safe for concurrent use.
type Monitor struct {
	specs []Spec
	opts  Options

	wmu       sync.Mutex
	w         *bufio.Writer
	f         *os.File
	err       error
	lastFlush time.Time

	mu     sync.Mutex
	latest map[string]Sample
	counts map[string]*Counts
	subs   []func(Sample)

	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
}

// Counts are a source's readings so far.
type Counts struct {
	// OK readings and Failed ones; LastErr is the latest failure.
	OK, Failed int
	LastErr    string
	// ScrapeMs is the total time spent reading the source, ms.
	ScrapeMs float64
}

// Check verifies what can be checked before a run: that pid sources name
// processes that exist, and that a source naming process-exporter groups
// (#group=NAME) has one of them (its page is read once, within 5 s).
// Other endpoints are not contacted, and one that does not answer is not
// an error: its failures are counted during the run.
func Check(specs []Spec) error {
	for _, sp := range specs {
		if sp.Kind != KindPID {
			continue
		}
		p, err := newProcSource(sp)
		if err != nil {
			return err
		}
		if err := p.check(); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), groupCheckTimeout)
	defer cancel()
	for _, sp := range specs {
		if err := checkGroups(ctx, sp, http.DefaultClient); err != nil {
			return err
		}
	}
	return nil
}

// Start begins sampling specs, writing the series to dir/File. Each source
// has its own goroutine, so a slow endpoint delays no other.
func Start(dir string, specs []Spec, opts Options) (*Monitor, error) {
	if opts.Interval <= 0 {
		opts.Interval = time.Second
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * opts.Interval
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Transport: &http.Transport{
			Proxy: http.ProxyFromEnvironment, DisableCompression: true,
			MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute,
		}}
	}
	f, err := os.Create(filepath.Join(dir, File))
	if err != nil {
		return nil, fmt.Errorf("monitor: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Monitor{specs: specs, opts: opts, w: bufio.NewWriter(f), f: f,
		latest: map[string]Sample{}, counts: map[string]*Counts{}, cancel: cancel}
	for _, sp := range specs {
		m.counts[sp.ID] = &Counts{}
		read, err := m.reader(sp)
		if err != nil {
			cancel()
			f.Close()
			return nil, err
		}
		m.wg.Add(1)
		go m.loop(ctx, sp.ID, read)
	}
	return m, nil
}

// reader returns the function that takes one reading of sp.
func (m *Monitor) reader(sp Spec) (func(context.Context) (*reading, error), error) {
	switch sp.Kind {
	case KindPID:
		p, err := newProcSource(sp)
		if err != nil {
			return nil, err
		}
		return func(context.Context) (*reading, error) { return p.read() }, nil
	default:
		s := newScraper(sp, m.opts.Client)
		return func(ctx context.Context) (*reading, error) {
			ctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
			defer cancel()
			return s.read(ctx)
		}, nil
	}
}

// loop reads one source every interval; the first reading only sets the
// base of the rates.
func (m *Monitor) loop(ctx context.Context, id string, read func(context.Context) (*reading, error)) {
	defer m.wg.Done()
	t := time.NewTicker(m.opts.Interval)
	defer t.Stop()
	var prev *reading
	for {
		t0 := time.Now()
		cur, err := read(ctx)
		took := float64(time.Since(t0).Microseconds()) / 1e3
		if ctx.Err() != nil {
			return
		}
		switch {
		case err != nil:
			prev = nil // a gap: the next reading starts the rates again
			m.record(Sample{Time: time.Now(), Source: id, Err: err.Error(), ScrapeMs: took}, false)
		case prev != nil:
			v, dt := derive(prev, cur)
			m.record(Sample{Time: cur.at, Source: id, DT: round(dt, 3), Values: roundAll(v), ScrapeMs: round(took, 2)}, true)
			prev = cur
		default:
			m.count(id, true, "", took)
			prev = cur
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (m *Monitor) count(id string, ok bool, errMsg string, ms float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.counts[id]
	if ok {
		c.OK++
	} else {
		c.Failed++
		c.LastErr = errMsg
	}
	c.ScrapeMs += ms
}

// record writes s, remembers it and hands it to the subscribers.
func (m *Monitor) record(s Sample, ok bool) {
	m.count(s.Source, ok, s.Err, s.ScrapeMs)
	m.mu.Lock()
	if ok {
		m.latest[s.Source] = s
	}
	subs := m.subs
	m.mu.Unlock()
	b, err := json.Marshal(s)
	m.wmu.Lock()
	if err == nil && m.err == nil {
		m.w.Write(append(b, '\n'))
		if now := time.Now(); now.Sub(m.lastFlush) >= time.Second {
			// At most one write a second: the file lags by a second at worst.
			m.err, m.lastFlush = m.w.Flush(), now
		}
	} else if m.err == nil {
		m.err = err
	}
	m.wmu.Unlock()
	for _, fn := range subs {
		fn(s)
	}
}

// Subscribe calls fn with every sample taken from now on (failed readings
// too, with Err set), on the sampling goroutines: fn must return quickly.
func (m *Monitor) Subscribe(fn func(Sample)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.subs = append(m.subs, fn)
}

// Latest returns the most recent successful sample of every source that
// has one, by source ID.
func (m *Monitor) Latest() []Sample {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Sample, 0, len(m.latest))
	for _, s := range m.latest {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out
}

// Counts returns each source's reading counts so far, by source ID.
func (m *Monitor) Counts() map[string]Counts {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]Counts, len(m.counts))
	for k, c := range m.counts {
		out[k] = *c
	}
	return out
}

// Specs returns the sources being sampled.
func (m *Monitor) Specs() []Spec { return m.specs }

// Stop ends the sampling, waits for readings under way and closes the
// file. It may be called more than once, and on a nil Monitor; it returns
// the first write error.
func (m *Monitor) Stop() error {
	if m == nil {
		return nil
	}
	m.once.Do(func() {
		m.cancel()
		m.wg.Wait()
		m.wmu.Lock()
		defer m.wmu.Unlock()
		if err := m.w.Flush(); m.err == nil {
			m.err = err
		}
		if err := m.f.Close(); m.err == nil {
			m.err = err
		}
	})
	return m.err
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

// roundAll keeps 4 significant figures after the decimal point where it
// matters (fractions), whole numbers for large values: the file stays
// small and exact enough.
func roundAll(v map[string]float64) map[string]float64 {
	for k, x := range v {
		if math.Abs(x) >= 1000 {
			v[k] = math.Round(x)
		} else {
			v[k] = round(x, 4)
		}
	}
	return v
}
