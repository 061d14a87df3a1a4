package metrics

import "github.com/stampede-bench/stampede/metric"

// The measurement types are package metric's (public, documented there);
// these names let the rest of internal/metrics and its importers keep
// theirs.
type (
	Snapshot         = metric.Snapshot
	ScenarioSnapshot = metric.ScenarioSnapshot
	Trend            = metric.Trend
	Stats            = metric.Stats
	Rate             = metric.Rate
	Gauge            = metric.Gauge
	ErrorCount       = metric.ErrorCount
	Point            = metric.Point
	PointStats       = metric.PointStats
	Unit             = metric.Unit
)

// SnapshotVersion is the version of the snapshot file format.
const SnapshotVersion = metric.SnapshotVersion

// The units of a metric's values.
const (
	UnitNone   = metric.UnitNone
	UnitMicros = metric.UnitMicros
	UnitBytes  = metric.UnitBytes
)

// Histogram geometry shared by every trend (metric.NewHistogram).
const (
	HistLowest  = metric.HistLowest
	HistHighest = metric.HistHighest
	HistSigFigs = metric.HistSigFigs
)

// RateTotalSuffix ends the key of a rate's sample count in Point.Counts.
const RateTotalSuffix = metric.RateTotalSuffix
