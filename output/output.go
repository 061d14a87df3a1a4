// Package output is the contract of a live output of a run, as in k6's
// output package: an Output receives every finished second of every
// scenario (a metric.Point) and may add notes to the run's snapshot
// (Annotator). Outputs are made by factories a program adds to its
// catalog (stampede.Catalog.AddOutput) and named by --out NAME=ARG; the
// built-in ones (the request CSV, InfluxDB, Prometheus, k6's JSON and CSV
// streams, the report) implement the same interfaces. Factory, Params
// and Registry are how outputs are made and named, Spec how a run names
// one; a RequestLogger receives every request as a RequestRecord. The package depends on nothing of stampede but package metric.
package output

import "github.com/stampede-bench/stampede/metric"

// Output is one live output of a run. A run calls, in this order:
//
//   - Description, once the output has started: one console line, e.g.
//     "influxdb: writing to http://127.0.0.1:8086/k6"; "" announces
//     nothing.
//   - Start, once, before the first second is measured: open files and
//     connections and start goroutines here (never in the factory). An
//     error stops the run before it measures; the output is then not
//     stopped.
//   - Observe, once for every finished second of every scenario, in time
//     order, on the aggregator's goroutine: return quickly (buffer, and
//     send from a goroutine of your own) and keep nothing of p after
//     returning (p.Hist and p.Trends are reused).
//   - Stop, once, after the last Observe (also when the run failed or was
//     interrupted): flush, release what the output holds, and report what
//     could not be written.
//
// What an output can do beyond that (receive every request record, add
// notes to the snapshot) is an optional interface found by type
// assertion.
type Output interface {
	Description() string
	Start() error
	Observe(p *metric.Point)
	Stop() error
}

// Annotator is an Output that adds what it learned during the run to the
// snapshot: Annotate is called once after Stop, before the summaries are
// written (e.g. the number of lines InfluxDB lost, or that the generator
// was saturated during a scenario). Append to snap.Scenarios[i].Notes
// with AddNote, which avoids duplicates.
type Annotator interface {
	Annotate(snap *metric.Snapshot)
}

// AddNote appends note to notes unless it is already there.
func AddNote(notes []string, note string) []string {
	for _, x := range notes {
		if x == note {
			return notes
		}
	}
	return append(notes, note)
}

// Spec names one output of a run, as --out KIND=ARG would: Kind is a
// registry name (a factory's Name or one of its aliases, e.g. "influxdb"),
// Arg its ARG, Options the output's settings beyond ARG, by name (e.g.
// "linger" of the Prometheus endpoint; nil: none), which the factory gets
// with its parameters.
type Spec struct {
	Kind, Arg string
	Options   map[string]string
}
