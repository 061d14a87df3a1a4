package nats

import "github.com/stampede-bench/stampede/flags"

// BindFlags implements workload.FlagBinder: the options as run flags,
// with the family's options as defaults. A --nats-profile setting applies
// to the options whose flags the user did not give and the program did
// not change from DefaultOptions.
func (f *Family) BindFlags(fs flags.Set) {
	o := &f.opts
	fs.StringVar(&o.Profile, "nats-profile", o.Profile, "settings from the seed: high-throughput (R1, async publish) or high-reliability (R3, sync publish waiting for the quorum PubAck, fsync every message); explicit flags win")
	fs.IntVar(&o.Nodes, "nats-nodes", o.Nodes, "nodes of the embedded nats-server cluster (used without --target)")
	fs.IntVar(&o.Streams, "streams", o.Streams, "nats: streams to spread the load over")
	fs.StringVar(&o.StreamPrefix, "stream-prefix", o.StreamPrefix, "nats: streams are named PREFIX-0, PREFIX-1, ... with subjects PREFIX.0, PREFIX.1, ...")
	fs.IntVar(&o.Replicas, flagReplicas, o.Replicas, "nats: replicas of created streams (1-5)")
	fs.StringVar(&o.Storage, "nats-storage", o.Storage, "nats: stream storage, file or memory")
	fs.StringVar(&o.PublishMode, flagMode, o.PublishMode, "nats: async (a window of messages in flight per VU) or sync (wait for each PubAck)")
	fs.IntVar(&o.AsyncWindow, "nats-async-window", o.AsyncWindow, "nats: messages an async iteration publishes before waiting for their PubAcks")
	fs.StringVar(&o.Fsync, flagFsync, o.Fsync, "nats embedded cluster: always (sync_interval: always, fsync every message) or default (background fsync)")
	fs.IntVar(&o.MessageSize, "nats-message-size", o.MessageSize, "nats: payload size in bytes")
	fs.DurationVar(&o.PublishTimeout, "nats-publish-timeout", o.PublishTimeout, "nats: longest wait for one PubAck")
	fs.IntVar(&o.Consumers, "nats-consumers", o.Consumers, "nats: durable pull consumers per stream (nats.Consume)")
	fs.IntVar(&o.FetchBatch, "nats-fetch-batch", o.FetchBatch, "nats.Consume: messages one pull asks for")
	fs.DurationVar(&o.E2ETimeout, "nats-e2e-timeout", o.E2ETimeout, "nats.EndToEnd: a message not consumed within this is counted lost")
	fs.Int64Var(&o.MaxBytes, "nats-stream-max-bytes", o.MaxBytes, "nats: bytes kept per created stream, oldest discarded beyond (-1: unlimited)")
	fs.BoolVar(&o.DeleteStreams, "delete-streams", o.DeleteStreams, "nats: delete the streams this run created when it ends")
	fs.BoolVar(&o.Purge, "nats-purge", o.Purge, "nats: empty the load streams before the run (every message they hold is deleted), as nats bench --purge does")
	fs.DurationVar(&o.ChurnInterval, "stream-churn-interval", o.ChurnInterval, "nats: create and delete an extra stream every interval during the churn window (0: off)")
	fs.BoolVar(&o.ChurnNodes, "churn-nodes", o.ChurnNodes, "nats embedded cluster: a node leaves when the churn window opens and rejoins when it closes")
	fs.DurationVar(&o.ChurnStart, "nats-churn-start", o.ChurnStart, "nats: churn begins this long after the scenario starts")
	fs.DurationVar(&o.ChurnFor, "nats-churn-for", o.ChurnFor, "nats: churn lasts this long")
	fs.Int64Var(&o.MaxRateStart, "nats-max-rate-start", o.MaxRateStart, "nats.MaxRate: first rate tried, msgs/s")
	fs.DurationVar(&o.MaxRateStep, "nats-max-rate-step", o.MaxRateStep, "nats.MaxRate: how long each rate is held")
	fs.Float64Var(&o.MaxRateErrors, "nats-max-rate-errors", o.MaxRateErrors, "nats.MaxRate: highest tolerated error ratio")
	fs.StringVar(&o.KillNode, "kill-node", o.KillNode, "nats embedded cluster: AT[,restart AFTER], e.g. 5s,restart 10s: SIGKILL a node AT after the scenario starts and start it again AFTER later")
	fs.StringVar(&o.KillHook, "kill-hook", o.KillHook, "nats --kill-node on a --target cluster: command run with sh -c, {action} (kill|restart) and {node} (server name) replaced, also in STAMPEDE_KILL_ACTION and STAMPEDE_KILL_NODE")
	fs.StringVar(&o.KillWhich, "kill-which", o.KillWhich, "nats --kill-node: leader (of the first stream), follower, or nN (n1, n2, ...)")
	fs.IntVar(&o.PublishRetries, "nats-publish-retries", o.PublishRetries, "nats: resend a publish that found no stream to answer (no responders, as in a leader election) up to this often; each retry is counted in publish_retries")
	fs.DurationVar(&o.PublishRetryWait, "nats-publish-retry-wait", o.PublishRetryWait, "nats: wait between publish retries")
	fs.Float64Var(&o.MaxRatePrecision, "nats-max-rate-precision", o.MaxRatePrecision, "nats.MaxRate: stop bisecting once the bracket is narrower than this, relative")
	// An option counts as given when its flag is, or when the program
	// changed it from the default before binding the flags.
	chosen := f.opts.ChangedFromDefaults()
	f.explicit = func(option string) bool { return fs.Changed(option) || chosen(option) }
}
