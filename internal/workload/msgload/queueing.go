package msgload

import "time"

// noteFastest keeps the lowest send → acknowledgement latency of the run:
// a message with no queue ahead of it, the broker's own latency.
func (c *Core) noteFastest(d time.Duration) {
	for {
		cur := c.fastest.Load()
		if cur != 0 && int64(d) >= cur {
			return
		}
		if c.fastest.CompareAndSwap(cur, max(1, int64(d))) {
			return
		}
	}
}

// QueueingNote says, for a scenario whose VUs keep inflight messages in
// flight, how much of its publish latency was the client's own queue
// (QueueingLine over the run's throughput and fastest acknowledgement);
// "" before any acknowledgement, and under an arrival-rate schedule, where
// VUs wait for their next slot and the depth is not inflight.
func (c *Core) QueueingNote(inflight int, ack, knob string) string {
	if !c.started.Load() || c.Acked.Load() == 0 || c.scheduled.Load() {
		return ""
	}
	return QueueingLine(inflight, float64(c.Acked.Load())/c.Elapsed().Seconds(), time.Duration(c.fastest.Load()), ack, knob)
}

// QueueingLine says how much of the publish latency was the client's own
// queue: by Little's law the mean time a message spent between send and
// acknowledgement is the messages in flight over the throughput; against
// the fastest acknowledgement of the run (idle: no queue ahead of it), a
// ratio above 5 means most of the latency was waiting behind the client's
// other messages, not the broker. ack names the acknowledgement
// ("PubAck"), knob the option of the depth besides -u. It returns "" when
// the figures are missing.
func QueueingLine(inflight int, throughput float64, idle time.Duration, ack, knob string) string {
	if inflight <= 0 || throughput <= 0 || idle <= 0 {
		return ""
	}
	little := time.Duration(float64(inflight) / throughput * float64(time.Second))
	s := sprintf("latency and in-flight depth: %d messages in flight at %s msgs/s give a mean publish latency of about %s (Little's law); the fastest %s of the run (no queue ahead of it) took %s",
		inflight, FmtRate(throughput), little.Round(10*time.Microsecond), ack, idle.Round(10*time.Microsecond))
	if r := float64(little) / float64(idle); r > 5 {
		s += sprintf(": client-side queueing dominates the publish latency (%.0f× the fastest %s); lower -u or %s to measure the broker's latency, raise them to measure its throughput", r, ack, knob)
	} else {
		s += ": the publish latency is mostly the broker's"
	}
	return s
}
