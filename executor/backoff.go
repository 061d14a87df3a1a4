package executor

import "time"

// Defaults of Backoff.
const (
	DefaultBackoffMin = 50 * time.Millisecond
	DefaultBackoffMax = time.Second
)

// Backoff is how long a VU of a closed-model executor waits after an
// iteration that failed to reach the target (connection refused, reset,
// unreachable): Min after the first such failure, doubling after each
// further one up to Max, and none again once an iteration gets through.
// A dead target is then retried a few times a second per VU instead of in
// a tight loop. Arrival-rate executors do not back off: their iterations
// keep their schedule. Min < 0 disables backing off; zero values mean the
// defaults (WithDefaults).
type Backoff struct {
	Min, Max time.Duration
}

// WithDefaults is b with DefaultBackoffMin and DefaultBackoffMax for its
// zero values, and Max at least Min.
func (b Backoff) WithDefaults() Backoff {
	if b.Min == 0 {
		b.Min = DefaultBackoffMin
	}
	if b.Max == 0 {
		b.Max = DefaultBackoffMax
	}
	b.Max = max(b.Max, b.Min)
	return b
}
