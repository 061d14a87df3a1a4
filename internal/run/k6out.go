package run

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/k6stream"
	"github.com/stampede-bench/stampede/internal/output/promrw"
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

// openK6Streams opens the --out json=/csv= files of run number run.
// openK6Streams opens the --out json=/csv= streams; each file it creates is
// told to cleanup, so a command that fails before the run removes it.
func openK6Streams(p Plan, reg *metrics.Registry, tags map[string]string, cleanup *undoFiles) ([]*k6stream.Stream, error) {
	var out []*k6stream.Stream
	byMetric := map[string][]string{}
	if !p.NoThresholds {
		for _, t := range p.Thresholds.List() {
			for _, e := range t.Exprs {
				byMetric[t.Metric] = append(byMetric[t.Metric], e.Source)
			}
		}
	}
	for _, o := range p.Outputs {
		format, ok := K6StreamKinds[o.Kind]
		if !ok {
			continue
		}
		path := streamPath(o.Arg, p.Repeat, p.Run)
		s, err := k6stream.Open(path, format, reg,
			k6stream.Config{Tags: tags, Origin: targetOrigin(p.Target)}, byMetric)
		if err != nil {
			closeK6Streams(out)
			return nil, usagef("--out %s: %v", o.Kind, err)
		}
		cleanup.add(path)
		out = append(out, s)
	}
	return out, nil
}

func closeK6Streams(streams []*k6stream.Stream) error {
	var errs []error
	for _, s := range streams {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// teeLog sends every request record to several request logs.
type teeLog []engine.RequestLog

func (t teeLog) Writer(scenario string) engine.RequestWriter {
	ws := make(teeWriter, len(t))
	for i, l := range t {
		ws[i] = l.Writer(scenario)
	}
	return ws
}

type teeWriter []engine.RequestWriter

func (t teeWriter) Write(r engine.RequestRecord) {
	for _, w := range t {
		w.Write(r)
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
func withStreams(log engine.RequestLog, streams []*k6stream.Stream) engine.RequestLog {
	if len(streams) == 0 {
		return log
	}
	var t teeLog
	if log != nil {
		t = append(t, log)
	}
	for _, s := range streams {
		t = append(t, s)
	}
	if len(t) == 1 {
		return t[0]
	}
	return t
}

// markLiveSeries asks the aggregator for per-second histograms of k6's
// http_req_duration, which the live outputs (InfluxDB, remote write) write;
// without them the run does not pay for the extra histogram.
func markLiveSeries(reg *metrics.Registry) {
	if id, ok := reg.Lookup(metrics.HTTPReqDuration); ok {
		reg.MarkSeries(id)
	}
}

// checkRemoteWriteSpec validates --out prometheus-rw=URL.
func checkRemoteWriteSpec(o OutputSpec) error {
	if err := promrw.CheckURL(o.Arg); err != nil {
		return usagef("--out prometheus-rw: %v", err)
	}
	return nil
}

// startRemoteWrite starts a --out prometheus-rw=URL push.
func (l *liveOutputs) startRemoteWrite(o OutputSpec, p Plan, reg *metrics.Registry, runTags map[string]string, info io.Writer) error {
	tags := outputTags(p, runTags)
	out, err := promrw.New(promrw.Config{URL: o.Arg, Tags: tags, Registry: reg, Warn: info})
	if err != nil {
		return usagef("--out prometheus-rw: %v", err)
	}
	l.remoteWrites = append(l.remoteWrites, out)
	markLiveSeries(reg)
	l.observers = append(l.observers, out.Observe)
	fmt.Fprintf(info, "prometheus remote write: pushing to %s (testid=%s)\n", out.Display(), tags["testid"])
	return nil
}

// closeRemoteWrites flushes the pushes and returns their notes.
func (l *liveOutputs) closeRemoteWrites() []string {
	var notes []string
	for _, o := range l.remoteWrites {
		if n := o.Close().Note(o.Display()); n != "" {
			notes = append(notes, n)
		}
	}
	return notes
}

// promLabels are the run's tags as Prometheus constant labels (names made
// valid; scenario is the collector's own label).
func promLabels(tags map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range tags {
		if k == "scenario" || v == "" {
			continue
		}
		b := []byte(k)
		for i, c := range b {
			if !(c == '_' || '0' <= c && c <= '9' && i > 0 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
				b[i] = '_'
			}
		}
		out[string(b)] = v
	}
	return out
}
