// Package executor holds k6's executors as configuration: Config (a
// scenario's executor options, with k6's names and defaults), the six
// executors it decodes into (Of: ConstantVUsConfig, RampingVUsConfig,
// PerVUIterationsConfig, SharedIterationsConfig, ConstantArrivalRateConfig,
// RampingArrivalRateConfig), each of which validates and describes itself,
// tells how many VUs and how long it needs, and splits itself for a
// segment of a distributed run; Shortcuts, the command line's -u, -d, -i,
// --rate and --stage; the limits past which a value cannot be meant; and
// Segment, one part i/N of a distributed run, whose Apply scales an
// executor to the segment's exact share of the whole (segment.go).
// Running them is the engine's (internal); this package depends on
// nothing of stampede.
package executor
