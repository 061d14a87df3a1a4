package msgload

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/families/msgopt"
	"github.com/stampede-bench/stampede/vu"
)

// slotWait is how long a MaxRate VU waits for a slot before its iteration
// returns (the pacer is paused between steps).
const slotWait = 100 * time.Millisecond

// MaxRate is the one wiring of a MaxRate scenario, shared by kafka.MaxRate
// and nats.MaxRate: a pacer whose slots the VUs take, one message each,
// and the search (Search) that sets its rate from the load's progress. It
// records the result as max_rate and says in its summary when the VUs,
// not the broker, fell behind the schedule. Build it with NewMaxRate
// before the scenario starts.
type MaxRate struct {
	core   *Core
	opts   msgopt.MaxRate
	load   Progress
	pace   *Pacer
	search *Search
	// late counts slots a VU took more than one step after their
	// intended time: the VUs, not the broker, fell behind.
	late atomic.Int64
}

// NewMaxRate wires a search with options o over the progress load into
// core: the pacer and the search run on the scenario's run clock from its
// start until it stops.
func NewMaxRate(core *Core, o msgopt.MaxRate, load Progress) *MaxRate {
	now := func() time.Duration { return core.clock.Now() }
	m := &MaxRate{core: core, opts: o, load: load, pace: NewPacer(now)}
	m.search = &Search{
		Opts: o, Pace: m.pace, Now: now, Load: load,
		Logf: func(format string, args ...any) {
			if core.Logf != nil {
				core.Logf("%s: "+format, append([]any{core.Name}, args...)...)
			}
		},
		Found: func(best int64) { core.Pending.Trend(core.IDs.MaxRate, best) },
	}
	core.OnStart = append(core.OnStart, m.pace.Run, m.search.Run)
	return m
}

// Next waits for the next slot of the schedule (at most slotWait, on the
// VU's reused timer) and sets it as the iteration's intended start. ok is
// false when there was none (paused between steps, or the run stopped:
// err is then ctx's error).
func (m *MaxRate) Next(ctx context.Context, it *vu.Iter, timer *time.Timer) (ok bool, err error) {
	intended, ok, err := m.pace.Next(ctx, timer, slotWait)
	if !ok {
		return false, err
	}
	if it.Now()-intended > m.opts.MaxRateStep {
		m.late.Add(1)
	}
	it.Intended = intended
	return true, nil
}

// Backlog is the messages the schedule made due until now and the load
// did not complete.
func (m *MaxRate) Backlog(now time.Duration) int64 {
	return max(0, m.pace.Due(now)-m.load.Completed())
}

// Summary is the note of the finished search, with how often the VUs
// fell behind its schedule; "" when the scenario never started.
func (m *MaxRate) Summary() string {
	if !m.core.IsStarted() {
		return ""
	}
	line := m.search.Summary()
	if n := m.late.Load(); n > 0 {
		line += sprintf("; %d message(s) were sent more than one step after their intended time: the VUs (one message in flight each) fell behind the schedule, raise -u to test higher rates", n)
	}
	return line
}

// Progress is the progress a MaxRate search reads of c: messages sent,
// failed, and completed — consumed (consumed true: the scenario's
// consumers read what it publishes) or acknowledged, plus failed ones.
func (c *Core) Progress(consumed bool) Progress { return coreProgress{c, consumed} }

type coreProgress struct {
	c        *Core
	consumed bool
}

func (p coreProgress) Sent() int64   { return p.c.Sent.Load() }
func (p coreProgress) Failed() int64 { return p.c.Failed.Load() }
func (p coreProgress) Completed() int64 {
	if p.consumed {
		return p.c.Consumed.Load() + p.c.Failed.Load()
	}
	return p.c.Acked.Load() + p.c.Failed.Load()
}

// Best is the highest sustained rate found, msgs/s (read after the
// scenario stopped).
func (m *MaxRate) Best() int64 { return m.search.Best }
