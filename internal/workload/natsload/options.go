package natsload

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Options are the nats family's settings, one field per run flag. A
// profile fills what the user did not set explicitly.
type Options struct {
	// Profile is high-throughput (default) or high-reliability.
	Profile string
	// Nodes is the size of the embedded cluster (default 3); ignored with
	// --target.
	Nodes int
	// Streams is how many streams the load spreads over (default 1),
	// named StreamPrefix-i with subject StreamPrefix.i.
	Streams      int
	StreamPrefix string
	// Replicas of created streams (1..5); Storage is file or memory.
	Replicas int
	Storage  string
	// PublishMode is async (a window of messages in flight per VU, each
	// counted on its PubAck) or sync (one message, wait for its PubAck).
	PublishMode string
	// AsyncWindow is how many messages an async iteration publishes
	// before it waits for their PubAcks (default 500, as nats bench).
	AsyncWindow int
	// Fsync is always (sync_interval: always, fsync before every ack) or
	// default (background fsync); it configures the embedded cluster.
	Fsync string
	// MessageSize is the payload size in bytes (default 2048).
	MessageSize int
	// PublishTimeout bounds the wait for one PubAck (default 5s).
	PublishTimeout time.Duration
	// Consumers per stream: durable pull consumers (nats.Consume).
	Consumers int
	// FetchBatch is how many messages one nats.Consume pull asks for.
	FetchBatch int
	// E2ETimeout: a nats.EndToEnd message not consumed within it is lost.
	E2ETimeout time.Duration
	// MaxBytes caps each stream (oldest messages discarded beyond it;
	// default 1 GiB, as nats bench), so disk use stays bounded.
	MaxBytes int64
	// DeleteStreams deletes the streams this run created when it ends.
	DeleteStreams bool
	// Churn: a stream created and one deleted every ChurnInterval, and/or
	// a node leaving at ChurnStart and rejoining at ChurnStart+ChurnFor.
	ChurnInterval time.Duration
	ChurnNodes    bool
	ChurnStart    time.Duration
	ChurnFor      time.Duration
	// MaxRate* drive nats.MaxRate.
	MaxRateStart  int64
	MaxRateStep   time.Duration
	MaxRateErrors float64
}

// Flag names a profile may set.
const (
	flagReplicas = "nats-replicas"
	flagMode     = "nats-publish"
	flagFsync    = "nats-fsync"
)

// AddFlags registers the options on fs with their defaults.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Profile, "nats-profile", ProfileHighThroughput, "settings from the seed: high-throughput (R1, async publish) or high-reliability (R3, sync publish waiting for the quorum PubAck, fsync every message); explicit flags win")
	fs.IntVar(&o.Nodes, "nats-nodes", 3, "nodes of the embedded nats-server cluster (used without --target)")
	fs.IntVar(&o.Streams, "streams", 1, "nats: streams to spread the load over")
	fs.StringVar(&o.StreamPrefix, "stream-prefix", "stampede", "nats: streams are named PREFIX-0, PREFIX-1, ... with subjects PREFIX.0, PREFIX.1, ...")
	fs.IntVar(&o.Replicas, flagReplicas, 1, "nats: replicas of created streams (1-5)")
	fs.StringVar(&o.Storage, "nats-storage", "file", "nats: stream storage, file or memory")
	fs.StringVar(&o.PublishMode, flagMode, "async", "nats: async (a window of messages in flight per VU) or sync (wait for each PubAck)")
	fs.IntVar(&o.AsyncWindow, "nats-async-window", 500, "nats: messages an async iteration publishes before waiting for their PubAcks")
	fs.StringVar(&o.Fsync, flagFsync, "default", "nats embedded cluster: always (sync_interval: always, fsync every message) or default (background fsync)")
	fs.IntVar(&o.MessageSize, "nats-message-size", 2048, "nats: payload size in bytes")
	fs.DurationVar(&o.PublishTimeout, "nats-publish-timeout", 5*time.Second, "nats: longest wait for one PubAck")
	fs.IntVar(&o.Consumers, "nats-consumers", 1, "nats: durable pull consumers per stream (nats.Consume)")
	fs.IntVar(&o.FetchBatch, "nats-fetch-batch", 500, "nats.Consume: messages one pull asks for")
	fs.DurationVar(&o.E2ETimeout, "nats-e2e-timeout", 10*time.Second, "nats.EndToEnd: a message not consumed within this is counted lost")
	fs.Int64Var(&o.MaxBytes, "nats-stream-max-bytes", 1<<30, "nats: bytes kept per created stream, oldest discarded beyond (-1: unlimited)")
	fs.BoolVar(&o.DeleteStreams, "delete-streams", false, "nats: delete the streams this run created when it ends")
	fs.DurationVar(&o.ChurnInterval, "stream-churn-interval", 0, "nats: create and delete an extra stream every interval during the churn window (0: off)")
	fs.BoolVar(&o.ChurnNodes, "churn-nodes", false, "nats embedded cluster: a node leaves when the churn window opens and rejoins when it closes")
	fs.DurationVar(&o.ChurnStart, "nats-churn-start", 5*time.Second, "nats: churn begins this long after the scenario starts")
	fs.DurationVar(&o.ChurnFor, "nats-churn-for", 10*time.Second, "nats: churn lasts this long")
	fs.Int64Var(&o.MaxRateStart, "nats-max-rate-start", 1000, "nats.MaxRate: first rate tried, msgs/s")
	fs.DurationVar(&o.MaxRateStep, "nats-max-rate-step", 2*time.Second, "nats.MaxRate: how long each rate is held")
	fs.Float64Var(&o.MaxRateErrors, "nats-max-rate-errors", 0.001, "nats.MaxRate: highest tolerated error ratio")
}

// Defaults returns options with every flag at its default.
func Defaults() Options {
	var o Options
	o.AddFlags(pflag.NewFlagSet("defaults", pflag.ContinueOnError))
	return o
}

// Validate checks o and returns the first problem as a one-line message.
func (o *Options) Validate() error {
	switch {
	case o.Nodes < 1 || o.Nodes > 15:
		return fmt.Errorf("--nats-nodes must be between 1 and 15")
	case o.Streams < 1 || o.Streams > 10000:
		return fmt.Errorf("--streams must be between 1 and 10000")
	case o.StreamPrefix == "" || strings.ContainsAny(o.StreamPrefix, " .*>/\\\t"):
		return fmt.Errorf("--stream-prefix %q: use letters, digits, '_' and '-'", o.StreamPrefix)
	case o.Replicas < 1 || o.Replicas > 5:
		return fmt.Errorf("--nats-replicas must be between 1 and 5 (JetStream's limit)")
	case o.Storage != "file" && o.Storage != "memory":
		return fmt.Errorf("--nats-storage %q: want file or memory", o.Storage)
	case o.PublishMode != "async" && o.PublishMode != "sync":
		return fmt.Errorf("--nats-publish %q: want async or sync", o.PublishMode)
	case o.AsyncWindow < 1 || o.AsyncWindow > 1<<16:
		return fmt.Errorf("--nats-async-window must be between 1 and 65536")
	case o.Fsync != "always" && o.Fsync != "default":
		return fmt.Errorf("--nats-fsync %q: want always or default", o.Fsync)
	case o.MessageSize < 0 || o.MessageSize > 8<<20:
		return fmt.Errorf("--nats-message-size must be between 0 and 8 MiB")
	case o.PublishTimeout <= 0 || o.E2ETimeout <= 0:
		return fmt.Errorf("--nats-publish-timeout and --nats-e2e-timeout must be > 0")
	case o.MaxBytes == 0 || o.MaxBytes < -1:
		return fmt.Errorf("--nats-stream-max-bytes must be > 0 or -1 (unlimited)")
	case o.Consumers < 1 || o.FetchBatch < 1:
		return fmt.Errorf("--nats-consumers and --nats-fetch-batch must be ≥ 1")
	case o.ChurnInterval < 0 || o.ChurnStart < 0 || o.ChurnFor < 0:
		return fmt.Errorf("--stream-churn-interval, --nats-churn-start and --nats-churn-for must not be negative")
	case o.MaxRateStart < 1 || o.MaxRateStep <= 0 || o.MaxRateErrors < 0:
		return fmt.Errorf("--nats-max-rate-start must be ≥ 1, --nats-max-rate-step > 0, --nats-max-rate-errors ≥ 0")
	}
	return nil
}

// streamNames lists the load streams.
func (o *Options) streamNames() []string {
	out := make([]string, o.Streams)
	w := len(strconv.Itoa(o.Streams - 1))
	for i := range out {
		out[i] = fmt.Sprintf("%s-%0*d", o.StreamPrefix, w, i)
	}
	return out
}

// subjectOf is stream PREFIX-i's subject, PREFIX.i.
func subjectOf(stream string) string {
	i := strings.LastIndexByte(stream, '-')
	if i < 0 {
		return stream
	}
	return stream[:i] + "." + stream[i+1:]
}

// churning tells whether the run changes the cluster during the load.
func (o *Options) churning() bool { return o.ChurnInterval > 0 || o.ChurnNodes }
