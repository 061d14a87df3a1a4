// Package output defines what every output of a run has in common — the
// request CSV, InfluxDB, Prometheus (scrape and remote write), k6's JSON
// and CSV streams, the per-second series file, the HTML report, the
// summary export, the generator self-check — a Registry of the outputs a
// plan can name (Spec), and the Manager that starts and stops them.
//
// An Output lives through one run: Start before the first second is
// measured, Observe once for every finished second of every scenario, Stop
// once after the last. What an output can do beyond that (write request
// records, add notes to the snapshot, write files into the result
// directory, follow the target monitor) is an optional interface found by
// type assertion, as in k6's output package.
//
// This package knows metrics, the monitor's samples and the request
// records (reqlog); it never imports the engine or the CLI.
package output

import (
	"context"

	"github.com/stampede-bench/stampede/output"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
)

// Output and Annotator are package output's (public, documented there):
// a live output of a run, and one that adds notes to the snapshot.
type (
	Output    = output.Output
	Annotator = output.Annotator
)

// DirWriter is an Output that writes files of its own into the result
// directory, after Stop (e.g. selfcheck.json).
type DirWriter interface {
	WriteDir(dir string) error
}

// RequestLogger is an Output that also receives every request record of
// the run (output.RequestLogger).
type RequestLogger = output.RequestLogger

// TargetFeed is where the samples of the target monitor come from
// (*monitor.Monitor): Latest for outputs that are scraped, Subscribe for
// outputs that push.
type TargetFeed interface {
	Latest() []monitor.Sample
	Subscribe(fn func(monitor.Sample))
}

// TargetWatcher is an Output that also publishes the target monitor's
// samples. WatchTarget is called after Start and before the first Observe,
// only when the run monitors a target.
type TargetWatcher interface {
	WatchTarget(feed TargetFeed)
}

// Creator is an Output that creates files or directories outside the
// result directory in Start (a request CSV elsewhere, a k6 stream): when
// the run fails before the engine starts, they are removed again, files
// before the directories made for them.
type Creator interface {
	Created() []string
}

// Finished is what a run wrote once it ended, for the Finishers.
type Finished struct {
	// Dir is the result directory, with snapshot.json, summary.json,
	// summary.txt and every output's own files in place.
	Dir string
	// Snapshot is the final snapshot, with every output's notes.
	Snapshot *metrics.Snapshot
	// SummaryJSON is summary.json as written (nil when it could not be
	// made).
	SummaryJSON []byte
}

// Finisher is an Output that writes what needs the finished run (the HTML
// report, a copy of the summary): Finish is called once after Stop,
// Annotate and WriteDir, and after the summaries were written.
type Finisher interface {
	Finish(ctx context.Context, r Finished) error
}

// Spec names one output of a plan (output.Spec).
type Spec = output.Spec

// AddNote appends note to notes unless it is already there.
func AddNote(notes []string, note string) []string { return output.AddNote(notes, note) }

// NoteAll adds note to every scenario of snap (AddNote).
func NoteAll(snap *metrics.Snapshot, note string) {
	if note == "" {
		return
	}
	for _, sc := range snap.Scenarios {
		sc.Notes = AddNote(sc.Notes, note)
	}
}

// MarkLiveTrends asks the aggregator for per-second histograms of k6's
// http_req_duration, which outputs pushing k6's metrics write; a run
// without such an output does not pay for the extra histogram. Call it
// before the aggregator is made.
func MarkLiveTrends(reg *metrics.Registry) {
	if reg == nil {
		return
	}
	if id, ok := reg.Lookup(metrics.HTTPReqDuration); ok {
		reg.MarkSeries(id)
	}
}
