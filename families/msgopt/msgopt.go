// Package msgopt holds the options the kafka and nats families share:
// the knobs of the max-rate search (kafka.MaxRate, nats.MaxRate), which
// kafkaopt.Options and natsopt.Options embed.
package msgopt

import (
	"fmt"
	"time"
)

// MaxRate are the knobs of the max-rate search: the first rate tried,
// MaxRateStart (msgs/s, ≥ 1; default 1,000), each rate held for
// MaxRateStep (> 0; default 2s); a rate is sustained while the error ratio
// stays at most MaxRateErrors (≥ 0; default 0.001); the bisection ends
// once the bracket is narrower than MaxRatePrecision, relative to its
// lower end (in (0,1); default 0.05). The flags are --max-rate-start,
// --max-rate-step, --max-rate-errors and --max-rate-precision, with
// "nats-" after the dashes for the nats family.
type MaxRate struct {
	MaxRateStart     int64
	MaxRateStep      time.Duration
	MaxRateErrors    float64
	MaxRatePrecision float64
}

// DefaultMaxRate is the search both families start from: 1,000 msgs/s,
// each rate held 2 s, 0.1% errors tolerated, bisected to 5%.
func DefaultMaxRate() MaxRate {
	return MaxRate{MaxRateStart: 1000, MaxRateStep: 2 * time.Second, MaxRateErrors: 0.001, MaxRatePrecision: 0.05}
}

// Validate returns the first knob of o out of range, naming the flags as
// the family spells them: prefix + "max-rate-start", e.g. "--" or
// "--nats-".
func (o MaxRate) Validate(prefix string) error {
	switch {
	case o.MaxRateStart < 1:
		return fmt.Errorf("%smax-rate-start must be ≥ 1", prefix)
	case o.MaxRateStep <= 0:
		return fmt.Errorf("%smax-rate-step must be > 0", prefix)
	case o.MaxRateErrors < 0:
		return fmt.Errorf("%smax-rate-errors must be ≥ 0", prefix)
	case o.MaxRatePrecision <= 0 || o.MaxRatePrecision >= 1:
		return fmt.Errorf("%smax-rate-precision must be in (0,1)", prefix)
	}
	return nil
}
