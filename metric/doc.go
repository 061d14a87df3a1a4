// Package metric holds a run's measurements as outputs and Go programs
// receive them: Point, one second of one scenario (what Output.Observe
// gets, and a line of series.jsonl), and Snapshot, every scenario's merged
// measurements (snapshot.json, Result.Snapshot), with the HdrHistogram
// geometry every trend shares so that snapshots of several processes
// merge exactly (Merge); and Registry, the run's metric definitions
// (names, kinds, units: the built-in ones with fixed IDs, a family's own
// added before the run starts). Times are integer microseconds unless a
// field says otherwise. The package depends on nothing of stampede.
package metric
