// Package msgload is the messaging core that the kafka (internal/workload/kafka)
// and nats (internal/workload/nats) families share, so that a metric of
// the same name means the same thing in both:
//
//   - Sampler takes msgs_per_s (and its per-topic and per-phase parts) once
//     a second on the run clock, from a background goroutine, so that a
//     stalled second is a sample of its own, and takes a last sample of the
//     partial second when the scenario stops, so the drain after -d counts;
//   - Pacer is the one arrival schedule whose rate can change, and Search
//     the one max-rate search (double, then bisect) over it, a pure
//     controller of counts and a clock;
//   - Ledger is the end-to-end account: acknowledged vs consumed vs stored,
//     where a message counts lost only when the broker confirms it does not
//     hold it;
//   - KillSpec is the --kill-node schedule of a fault;
//   - Phase and FmtRate are the churn phases and the rate format of notes.
//
// The families are adapters: they publish and consume with their client
// libraries, count into the core's counters and implement Holder (and
// NodeKiller for an embedded cluster).
package msgload
