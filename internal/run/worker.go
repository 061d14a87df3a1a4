package run

import (
	"time"

	"github.com/stampede-bench/stampede/executor"
)

// ForWorker is the plan of one worker of a distributed run (a pod of a
// Kubernetes Indexed Job): segment seg of p, into dir, starting at startAt
// (RFC 3339 or now+D; empty: at once). Bad input is a usage error.
func (p Plan) ForWorker(seg executor.Segment, dir, startAt string, now time.Time) (Plan, error) {
	p.Out = dir
	if startAt != "" {
		t, err := ParseStartAt(startAt, now)
		if err != nil {
			return p, usagef("--start-at: %v", err)
		}
		if err := CheckStartAt(t, startAt, now); err != nil {
			return p, err
		}
		p.StartAt = t
	}
	return p.WithSegment(seg)
}

// CommonStart is the start time of every worker: startAt (RFC 3339 or
// now+D, not in the past) when given, else now + delay, to the second.
// delayGiven says whether the user gave delay too, which is refused.
func CommonStart(startAt string, delay time.Duration, delayGiven bool, now time.Time) (time.Time, error) {
	switch {
	case startAt != "" && delayGiven:
		return time.Time{}, usagef("give --start-at or --start-delay, not both")
	case startAt != "":
		t, err := ParseStartAt(startAt, now)
		if err != nil {
			return time.Time{}, usagef("--start-at: %v", err)
		}
		if t.Before(now) {
			return time.Time{}, usagef("--start-at %s is in the past", startAt)
		}
		return t, nil
	case delay < 0:
		return time.Time{}, usagef("--start-delay must not be negative")
	}
	return now.Add(delay).Truncate(time.Second), nil
}
