package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/k6stream"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// K6StreamKinds are the --out kinds written per request in k6's formats.
var K6StreamKinds = map[string]k6stream.Format{"json": k6stream.JSON, "csv": k6stream.CSV}

// streamPath is the file of a --out json=/csv= spec for a run: with
// --repeat, run N writes FILE-run-NN.EXT (before .gz).
func streamPath(file string, repeat, run int) string {
	if repeat <= 1 || run == 0 {
		return file
	}
	base, gz := strings.CutSuffix(file, ".gz")
	ext := filepath.Ext(base)
	out := fmt.Sprintf("%s-run-%02d%s", strings.TrimSuffix(base, ext), run, ext)
	if gz {
		out += ".gz"
	}
	return out
}

// CheckStreamSpec refuses a stream file that exists (results are never
// overwritten), before anything runs.
func CheckStreamSpec(o OutputSpec, repeat int) error {
	if o.Arg == "" {
		return usagef("--out %s= needs a file name, e.g. %s=results.%s.gz", o.Kind, o.Kind, o.Kind)
	}
	for run := 0; run <= repeat; run++ {
		path := streamPath(o.Arg, repeat, run)
		if _, err := os.Stat(path); err == nil {
			return usagef("--out %s=%s: the file exists; choose another name (stampede never overwrites results)", o.Kind, path)
		}
		if repeat <= 1 {
			break
		}
	}
	if dir := filepath.Dir(o.Arg); dir != "." {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return usagef("--out %s=%s: directory %s does not exist", o.Kind, o.Arg, dir)
		}
	}
	return nil
}

// streamOutput is an --out output written per request (json=, csv=).
type streamOutput interface {
	output.Output
	reqlog.Log
}

// openK6Streams opens the --out json=/csv= streams of run p.Run; each file
// it creates is told to cleanup, so a command that fails before the run
// removes it.
func openK6Streams(deps Deps, p Plan, reg *metrics.Registry, tags map[string]string, cleanup *undoFiles) ([]streamOutput, error) {
	var out []streamOutput
	byMetric := map[string][]string{}
	if !p.NoThresholds {
		for _, t := range p.Thresholds.List() {
			for _, e := range t.Exprs {
				byMetric[t.Metric] = append(byMetric[t.Metric], e.Source)
			}
		}
	}
	outs := deps.outputRegistry()
	for _, o := range p.Outputs {
		if _, ok := K6StreamKinds[o.Kind]; !ok {
			continue
		}
		path := streamPath(o.Arg, p.Repeat, p.Run)
		made, err := outs.New(o.Kind, output.Params{Arg: path, Registry: reg, Tags: tags, Origin: targetOrigin(p.Target), Thresholds: byMetric})
		s, ok := made.(streamOutput)
		if err == nil && !ok {
			err = fmt.Errorf("output %s writes no request log", o.Kind)
		}
		if err == nil {
			err = s.Start()
		}
		if err != nil {
			closeK6Streams(out)
			return nil, usagef("--out %s: %v", o.Kind, err)
		}
		cleanup.add(path)
		out = append(out, s)
	}
	return out, nil
}

func closeK6Streams(streams []streamOutput) error {
	var errs []error
	for _, s := range streams {
		errs = append(errs, s.Stop())
	}
	return errors.Join(errs...)
}

// teeLog sends every request record to several request logs.
type teeLog []reqlog.Log

func (t teeLog) Writer(scenario string) reqlog.Writer {
	ws := make(teeWriter, len(t))
	for i, l := range t {
		ws[i] = l.Writer(scenario)
	}
	return ws
}

type teeWriter []reqlog.Writer

func (t teeWriter) Write(r reqlog.Record) {
	for _, w := range t {
		w.Write(r)
	}
}

// Flush forwards to the writers that buffer (reqlog.Flusher).
func (t teeWriter) Flush() {
	for _, w := range t {
		if f, ok := w.(reqlog.Flusher); ok {
			f.Flush()
		}
	}
}

// Iteration forwards to the writers that take events (reqlog.EventWriter).
func (t teeWriter) Iteration(at time.Time, d time.Duration, failed bool) {
	for _, w := range t {
		if e, ok := w.(reqlog.EventWriter); ok {
			e.Iteration(at, d, failed)
		}
	}
}

// Check forwards to the writers that take events (reqlog.EventWriter).
func (t teeWriter) Check(at time.Time, id metrics.ID, ok bool) {
	for _, w := range t {
		if e, is := w.(reqlog.EventWriter); is {
			e.Check(at, id, ok)
		}
	}
}

func (t teeWriter) Close() error {
	var errs []error
	for _, w := range t {
		errs = append(errs, w.Close())
	}
	return errors.Join(errs...)
}

// withStreams adds the k6 streams to the run's request log.
func withStreams(log reqlog.Log, streams []streamOutput) reqlog.Log {
	more := make([]reqlog.Log, len(streams))
	for i, s := range streams {
		more[i] = s
	}
	return withLogs(log, more)
}

// withLogs adds more request logs to log (nil: none yet). Without more,
// log is returned as it is, so that a run nobody asks request records of
// hands the engine no request log.
func withLogs(log reqlog.Log, more []reqlog.Log) reqlog.Log {
	if len(more) == 0 {
		return log
	}
	var t teeLog
	switch l := log.(type) {
	case nil:
	case teeLog:
		t = append(t, l...)
	default:
		t = append(t, l)
	}
	t = append(t, more...)
	if len(t) == 1 {
		return t[0]
	}
	return t
}
