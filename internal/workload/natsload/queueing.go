package natsload

import "time"

// noteFastest keeps the lowest publish → PubAck latency of the run: a
// message with no queue ahead of it, the broker's own latency.
func (b *base) noteFastest(d time.Duration) {
	for {
		cur := b.fastest.Load()
		if cur != 0 && int64(d) >= cur {
			return
		}
		if b.fastest.CompareAndSwap(cur, max(1, int64(d))) {
			return
		}
	}
}

// queueingNote says how much of the publish latency was the client's own
// queue: by Little's law the mean time a message spent between publish and
// PubAck is the messages in flight over the throughput; against the
// fastest PubAck of the run (no queue ahead of it), a ratio above 5 means most of
// the latency was waiting behind the client's other messages, not the
// broker. idle is the fastest PubAck of the run (noteFastest). It returns
// "" when the figures are missing.
func queueingNote(inflight int, throughput float64, idle time.Duration) string {
	if inflight <= 0 || throughput <= 0 || idle <= 0 {
		return ""
	}
	little := time.Duration(float64(inflight) / throughput * float64(time.Second))
	s := sprintf("latency and in-flight depth: %d messages in flight at %s msgs/s give a mean publish latency of about %s (Little's law); the fastest PubAck of the run (no queue ahead of it) took %s",
		inflight, fmtRate(throughput), little.Round(10*time.Microsecond), idle.Round(10*time.Microsecond))
	if r := float64(little) / float64(idle); r > 5 {
		s += sprintf(": client-side queueing dominates the publish latency (%.0f× the fastest PubAck); lower -u or --nats-async-window to measure the broker's latency, raise them to measure its throughput", r)
	} else {
		s += ": the publish latency is mostly the broker's"
	}
	return s
}
