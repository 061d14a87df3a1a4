// Package resultdir reads and writes a run's result directory: everything
// needed to re-analyse a run without re-running it.
//
//	options.json   what was run (executors, target without credentials)
//	env.json       machine and target fingerprint
//	snapshot.json  every metric with its HDR histogram (exact, mergeable)
//	series.jsonl   one line per scenario and second, with that second's histogram
//	summary.json   k6 --summary-export shape
//	summary.txt    the console summary
//	requests.csv   per-request log (nebula-bench columns), unless disabled
//	report.html    the HTML report
//	monitor.jsonl  per-second target resources (--monitor), one line per source
package resultdir

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/stampede-bench/stampede/internal/bounded"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/envinfo"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/metric"
)

// File names inside a result directory.
const (
	OptionsFile  = "options.json"
	EnvFile      = "env.json"
	SnapshotFile = "snapshot.json"
	SeriesFile   = "series.jsonl"
	SummaryFile  = "summary.json"
	ConsoleFile  = "summary.txt"
	RequestsFile = "requests.csv"
	ReportFile   = "report.html"
)

// Options records what was run.
type Options struct {
	// Args are the command-line arguments, credentials redacted.
	Args   []string `json:"args,omitempty"`
	Target string   `json:"target"`
	// InProcess is set when the target ran inside stampede's process
	// (SQLite, the embedded Kafka cluster).
	InProcess bool `json:"inProcess,omitempty"`
	// StandIn is set when the target was a test stand-in that does not
	// model a real cluster (kfake, also behind stampede kafka serve).
	StandIn bool `json:"standIn,omitempty"`
	// Scenarios in run order with their executor configuration.
	Scenarios  []ScenarioOptions `json:"scenarios"`
	Concurrent bool              `json:"concurrent,omitempty"`
	Seed       int64             `json:"seed"`
	// Segment is "i/N" for one of N instances of a distributed run.
	Segment string `json:"segment,omitempty"`
	// Run numbers repeated runs from 1 (0: not repeated).
	Run int `json:"run,omitempty"`
	// Flags holds workload options (batch size, message size, ...).
	Flags      map[string]string `json:"flags,omitempty"`
	Thresholds []string          `json:"thresholds,omitempty"`
	// Sweep describes the step of a sweep this run belongs to.
	Sweep map[string]string `json:"sweep,omitempty"`
	// Monitor lists the --monitor sources as ID=ENDPOINT (no credentials);
	// their per-second series is monitor.jsonl.
	Monitor []string `json:"monitor,omitempty"`
	// NICSpeed is --nic-speed in bytes per second (0: not given).
	NICSpeed float64 `json:"nicSpeed,omitempty"`
}

// ScenarioOptions is one scenario of a run.
type ScenarioOptions struct {
	Name   string        `json:"name"`
	Config engine.Config `json:"config"`
}

// Result is a loaded result directory.
type Result struct {
	Dir      string
	Options  Options
	Env      envinfo.Fingerprint
	Snapshot *metrics.Snapshot
}

// Prepare creates dir for a new run. An existing non-empty directory that
// holds a result is refused rather than mixed with a new one.
func Prepare(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, SnapshotFile)); err == nil {
		return fmt.Errorf("result directory %s already holds a run; choose another --out", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create result directory: %w", err)
	}
	return nil
}

// WriteJSON writes v as indented JSON to dir/name atomically.
func WriteJSON(dir, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", name, err)
	}
	return WriteFile(dir, name, append(b, '\n'))
}

// WriteFile writes data to dir/name atomically (temporary file + rename),
// so an interrupted write never leaves a truncated file. The file gets the
// mode every result file has (0666 less the umask, as os.Create gives
// series.jsonl and requests.csv).
func WriteFile(dir, name string, data []byte) error {
	tmp, err := createTemp(dir, "."+name+".")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// Load reads a result directory.
func Load(dir string) (*Result, error) {
	r := &Result{Dir: dir}
	if err := readJSON(dir, SnapshotFile, &r.Snapshot); err != nil {
		return nil, err
	}
	if err := readJSON(dir, OptionsFile, &r.Options); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := readJSON(dir, EnvFile, &r.Env); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return r, nil
}

func readJSON(dir, name string, v any) error {
	err := bounded.DecodeJSON(context.Background(), filepath.Join(dir, name), bounded.ResultBytes, v)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s is not a result directory (no %s): %w", dir, name, os.ErrNotExist)
	}
	return err
}

// IsResult reports whether dir holds a run.
func IsResult(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, SnapshotFile))
	return err == nil
}

// Find returns dir itself when it holds a run, or else the result
// directories directly below it (a parent of repeated runs or of a sweep),
// sorted by name.
func Find(dir string) ([]string, error) {
	if IsResult(dir) {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	var out []string
	for _, e := range entries {
		if p := filepath.Join(dir, e.Name()); e.IsDir() && IsResult(p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no result directory (no %s in it or below it)", dir, SnapshotFile)
	}
	return out, nil
}

// SeriesWriter appends finished seconds to series.jsonl. Use Observe as a
// metrics.Observer; it remembers the first write error for Close.
type SeriesWriter struct {
	f   *os.File
	w   *bufio.Writer
	enc *json.Encoder
	err error
}

// NewSeriesWriter creates dir/series.jsonl.
func NewSeriesWriter(dir string) (*SeriesWriter, error) {
	f, err := os.Create(filepath.Join(dir, SeriesFile))
	if err != nil {
		return nil, fmt.Errorf("create series: %w", err)
	}
	w := bufio.NewWriterSize(f, 64<<10)
	return &SeriesWriter{f: f, w: w, enc: json.NewEncoder(w)}, nil
}

// Observe writes p with its histogram encoded.
func (s *SeriesWriter) Observe(p *metrics.Point) {
	if s.err != nil {
		return
	}
	if p.Hist != nil && p.Hist.TotalCount() > 0 {
		enc, err := metric.EncodeHistogram(p.Hist)
		if err != nil {
			s.err = err
			return
		}
		p.HistEnc = enc
	}
	s.err = s.enc.Encode(p)
	p.HistEnc = ""
}

// Flush pushes buffered lines to the file (the file stays valid JSONL).
func (s *SeriesWriter) Flush() error {
	if s.err != nil {
		return s.err
	}
	return s.w.Flush()
}

// Close flushes and closes the file.
func (s *SeriesWriter) Close() error {
	err := s.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadSeries calls fn for each point in dir/series.jsonl, in file order,
// with its histogram decoded into Point.Hist. A missing file yields no
// points.
func ReadSeries(dir string, fn func(*metrics.Point) error) error {
	return ScanSeries(dir, func(p *metrics.Point) error {
		if p.HistEnc != "" {
			h, err := metric.DecodeHistogram(p.HistEnc)
			if err != nil {
				return err
			}
			p.Hist = h
		}
		return fn(p)
	})
}

// ScanSeries is ReadSeries without decoding histograms: each point keeps
// its encoded histogram in Point.HistEnc, for readers that decode only some
// of them or decode them differently.
func ScanSeries(dir string, fn func(*metrics.Point) error) error {
	path := filepath.Join(dir, SeriesFile)
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	defer f.Close()
	// One point per line, each at most bounded.RecordBytes: a file of one
	// endless line is refused, not read into memory.
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 256<<10), int(bounded.RecordBytes))
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var p metrics.Point
		if err := json.Unmarshal(b, &p); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if err := fn(&p); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return usage.Wrap(&bounded.TooLargeError{Path: path + ": a line", Limit: bounded.RecordBytes})
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// StampName returns a directory name for a run started at t.
func StampName(t time.Time) string { return t.Format("2006-01-02T15-04-05") }

// createTemp is os.CreateTemp with os.Create's mode (0666 before the
// umask) instead of 0600.
func createTemp(dir, prefix string) (*os.File, error) {
	for i := 0; ; i++ {
		var rnd [6]byte
		if _, err := rand.Read(rnd[:]); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(filepath.Join(dir, prefix+hex.EncodeToString(rnd[:])), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil || !errors.Is(err, fs.ErrExist) || i >= 100 {
			return f, err
		}
	}
}
