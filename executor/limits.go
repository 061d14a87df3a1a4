package executor

import (
	"fmt"
	"time"
)

// The limits of what a scenario may ask for: past them a value cannot be
// meant (a typo such as -d 999999h or --rate 1000000000000) and is refused
// by Validate, naming the limit. They are listed in docs/guardrails.md.
const (
	// MaxTotalDuration is the longest one scenario may run: 7 days
	// (without its graceful stop).
	MaxTotalDuration = 7 * 24 * time.Hour
	// MaxRatePerSecond is the highest arrival rate, in iterations per
	// second (rate per timeUnit, scaled): 10,000,000, well above what one
	// process can start.
	MaxRatePerSecond = 10_000_000
)

// peakRate is the highest rate an arrival-rate configuration asks for, in
// iterations per TimeUnit (0 for closed-model executors).
func (c Config) peakRate() int64 {
	switch c.Executor {
	case ConstantArrivalRate:
		return c.Rate
	case RampingArrivalRate:
		peak := c.StartRate
		for _, s := range c.Stages {
			peak = max(peak, s.Target)
		}
		return peak
	}
	return 0
}

// checkLimits reports a duration or rate past the limits above.
func (c Config) checkLimits(bad func(string, ...any)) {
	if total := c.TotalDuration(); total > MaxTotalDuration {
		bad("the scenario would run %s, longer than the limit of %s (7 days)", total, MaxTotalDuration)
	}
	if c.TimeUnit > 0 {
		if r := float64(c.peakRate()) * float64(time.Second) / float64(c.TimeUnit); r > MaxRatePerSecond {
			bad("a rate of %s iterations per second is above the limit of %d", formatRate(r), MaxRatePerSecond)
		}
	}
}

func formatRate(r float64) string {
	if r >= 1e6 {
		return fmt.Sprintf("%.3g", r)
	}
	return fmt.Sprintf("%.0f", r)
}
