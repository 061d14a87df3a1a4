package k6stream

import (
	"context"
	"fmt"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// Live is a Stream as an output.Output (--out json=FILE, --out csv=FILE):
// Start creates the file, Stop flushes and closes it. It is written per
// request, not per second: the run finds its request log by asserting
// reqlog.Log, which Live is.
type Live struct {
	path       string
	format     Format
	reg        *metrics.Registry
	cfg        Config
	thresholds map[string][]string
	s          *Stream
}

var (
	_ output.Output = (*Live)(nil)
	_ reqlog.Log    = (*Live)(nil)
)

// Factory is the registry entry of --out json=FILE (format JSON) or
// --out csv=FILE (CSV). ARG is the file to create; with repeated runs
// (Params.Repeat > 1), run N writes FILE-run-NN.EXT (output.PathOfRun). The
// preflight refuses a file that exists (results are never overwritten)
// or a directory that does not.
func Factory(format Format) output.Factory {
	name := string(format)
	return output.Factory{
		Name:  name,
		Usage: name + "=FILE",
		Preflight: func(_ context.Context, p output.Params) error {
			return CheckFile(name, p.Arg, p.Repeat)
		},
		New: func(p output.Params) (output.Output, error) {
			return NewLive(output.PathOfRun(p.Arg, p.Repeat, p.Run), format, p.Registry, Config{Tags: p.Tags, Origin: p.Origin}, p.Thresholds), nil
		},
	}
}

// CheckFile refuses a stream file (of --out name=file) that is missing,
// exists for any of repeat runs, or whose directory does not exist, before
// anything runs.
func CheckFile(name, file string, repeat int) error {
	if file == "" {
		return fmt.Errorf("needs a file name, e.g. %s=results.%s.gz", name, name)
	}
	return output.CheckNewFile(file, repeat)
}

// NewLive returns the stream of path; see Open for the arguments.
func NewLive(path string, format Format, reg *metrics.Registry, cfg Config, thresholds map[string][]string) *Live {
	return &Live{path: path, format: format, reg: reg, cfg: cfg, thresholds: thresholds}
}

// Path is the file the stream writes.
func (l *Live) Path() string { return l.path }

// Description is empty: the streams announce nothing.
func (l *Live) Description() string { return "" }

// Start creates the file (never over an existing one).
func (l *Live) Start() error {
	s, err := Open(l.path, l.format, l.reg, l.cfg, l.thresholds)
	if err != nil {
		return err
	}
	l.s = s
	return nil
}

// Observe does nothing: the stream is written per request (Writer).
func (l *Live) Observe(*metrics.Point) {}

// Writer implements reqlog.Log.
func (l *Live) Writer(scenario string) reqlog.Writer { return l.s.Writer(scenario) }

// Created is the file, once Start created it.
func (l *Live) Created() []string {
	if l.s == nil {
		return nil
	}
	return []string{l.path}
}

// Stop flushes every buffer and closes the file.
func (l *Live) Stop() error { return l.s.Close() }

// Err is the stream's first write error so far (see Stream.Err).
func (l *Live) Err() error {
	if l.s == nil {
		return nil
	}
	return l.s.Err()
}
