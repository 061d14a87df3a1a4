package metrics

import (
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// Clock is the run's time base (metric.Clock).
type Clock = metric.Clock

// NewClock starts a clock at the current time.
func NewClock() Clock { return metric.NewClock() }

// ClockAt returns a clock whose zero is t (e.g. a common --start-at).
func ClockAt(t time.Time) Clock { return metric.ClockAt(t) }
