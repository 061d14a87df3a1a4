package cli

import (
	"context"
	"time"
)

// applySegment scales every scenario's executor to this instance's share
// when --segment i/N is given.
func applySegment(p *runPlan) error {
	if p.flags.segment != "" {
		return usagef("--segment is not available yet")
	}
	return nil
}

// waitStartAt blocks until --start-at (if any) and returns the time the
// run's clock starts at (zero: now).
func waitStartAt(ctx context.Context, p *runPlan) (time.Time, error) {
	if p.flags.startAt != "" {
		return time.Time{}, usagef("--start-at is not available yet")
	}
	return time.Time{}, nil
}
