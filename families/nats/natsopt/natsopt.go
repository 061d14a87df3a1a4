// Package natsopt holds the nats family's options, with its
// high-throughput and high-reliability profiles: the typed settings that
// package families/nats names as nats.Options.
package natsopt

import (
	"fmt"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/families/msgopt"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// Profile names, from the seed's two configurations (msgload.SeedProfiles).
const (
	ProfileHighThroughput  = msgload.ProfileHighThroughput
	ProfileHighReliability = msgload.ProfileHighReliability
)

// Options are the nats family's settings. Each field's comment gives its
// unit, its default (DefaultOptions) and the run flag that sets it. Start
// from DefaultOptions, change fields, then Validate.
type Options struct {
	// Profile is ProfileHighThroughput (default) or ProfileHighReliability:
	// the seed's settings for replicas, publish mode and fsync
	// (--nats-profile). New applies it to those of the profile's settings
	// that still hold their DefaultOptions value: a setting changed from
	// the default wins, as an explicit flag wins over --nats-profile.
	// ApplyProfile sets them all.
	Profile string
	// Nodes is the size of the embedded cluster, 1 to 15, used without a
	// target (default 3; --nats-nodes).
	Nodes int
	// Streams is how many streams the load spreads over, 1 to 10000
	// (default 1; --streams), named StreamPrefix-i with subject
	// StreamPrefix.i (default prefix "stampede"; --stream-prefix). On the
	// embedded cluster, unless --streams is given (or the field changed
	// from 1), there is one stream per node, stream i led by node i mod N,
	// so that writes spread over the nodes as a node sweep needs.
	Streams      int
	StreamPrefix string
	// Replicas of created streams, 1 to 5 (default 1; --nats-replicas).
	Replicas int
	// Storage of created streams: file (default) or memory
	// (--nats-storage).
	Storage string
	// PublishMode is async (default: a window of messages in flight per
	// VU, each counted on its PubAck) or sync (one message, wait for its
	// PubAck) (--nats-publish).
	PublishMode string
	// AsyncWindow is how many messages an async iteration publishes
	// before it waits for their PubAcks (--nats-async-window). Default
	// 500 in all, as one nats bench client with --batch 500: when the flag
	// is not given, each of the run's VUs gets 500/VUs (at least 1), so
	// that the default depth measures the broker, not a client queue.
	AsyncWindow int
	// Fsync is always (sync_interval: always, fsync before every ack) or
	// default (default: background fsync); it configures the embedded
	// cluster only (--nats-fsync).
	Fsync string
	// MessageSize is the payload size in bytes, up to 8 MiB (default 2048;
	// --nats-message-size).
	MessageSize int
	// PublishTimeout bounds the wait for one PubAck (default 5s;
	// --nats-publish-timeout).
	PublishTimeout time.Duration
	// Consumers per stream: durable pull consumers of nats.Consume
	// (default 1; --nats-consumers).
	Consumers int
	// FetchBatch is how many messages one nats.Consume pull asks for
	// (default 500; --nats-fetch-batch).
	FetchBatch int
	// E2ETimeout is how long nats.EndToEnd waits for a published message
	// to be consumed before counting it lost (default 10s;
	// --nats-e2e-timeout).
	E2ETimeout time.Duration
	// MaxBytes caps each created stream in bytes, oldest messages
	// discarded beyond it, so disk use stays bounded (default 1 GiB, as
	// nats bench; -1: unlimited; --nats-stream-max-bytes).
	MaxBytes int64
	// DeleteStreams deletes the streams this run created when it ends
	// (default false; --delete-streams).
	DeleteStreams bool
	// Purge empties the load streams before the run, every message they
	// hold deleted, as nats bench --purge does, so that a run does not
	// write after an earlier run's data (default false; --nats-purge).
	// It cannot be given for nats.Consume, which reads what they hold.
	Purge bool
	// ChurnInterval creates and deletes an extra stream every interval
	// (default 0: off; --stream-churn-interval) and ChurnNodes makes a
	// node of the embedded cluster leave (default false; --churn-nodes),
	// during the churn window from ChurnStart (default 5s;
	// --nats-churn-start) to ChurnStart+ChurnFor (default 10s;
	// --nats-churn-for) after the scenario starts.
	ChurnInterval time.Duration
	ChurnNodes    bool
	ChurnStart    time.Duration
	ChurnFor      time.Duration
	// MaxRate holds the knobs of nats.MaxRate's search (--nats-max-rate-start,
	// -step, -errors, -precision).
	msgopt.MaxRate
	// KillNode is a fault, AT[,restart AFTER]: AT after the scenario
	// starts SIGKILL one node of the embedded cluster, and start it again
	// AFTER later (default "": none; --kill-node). KillWhich picks the
	// node: leader (default: the leader of the first stream, a leader
	// kill), follower, or nN (--kill-which).
	KillNode  string
	KillWhich string
	// KillHook is the command that kills and restarts a node of a
	// --target cluster for --kill-node: sh -c CMD with {action}
	// (kill|restart) and {node} (the server name) replaced, also in
	// STAMPEDE_KILL_ACTION and STAMPEDE_KILL_NODE (default "": --kill-node
	// needs the embedded cluster; --kill-hook).
	KillHook string
	// PublishRetries is how often a publish that found no stream to answer
	// it ("no responders", as during a leader election) is sent again,
	// PublishRetryWait apart (defaults 2 and 250ms, nats.go's; --nats-publish-retries,
	// --nats-publish-retry-wait). Every retry is counted in publish_retries.
	PublishRetries   int
	PublishRetryWait time.Duration

	// applied is the profile ApplyProfile set: New does not apply it again.
	applied string
}

// Flag names a profile may set.
const (
	flagReplicas = "nats-replicas"
	flagMode     = "nats-publish"
	flagFsync    = "nats-fsync"
)

// DefaultOptions returns the defaults of a bare `stampede run
// nats.Publish`: the high-throughput profile.
func DefaultOptions() Options {
	return Options{
		Profile:          ProfileHighThroughput,
		Nodes:            3,
		Streams:          1,
		StreamPrefix:     "stampede",
		Replicas:         1,
		Storage:          "file",
		PublishMode:      "async",
		AsyncWindow:      500,
		Fsync:            "default",
		MessageSize:      msgload.MessageSize,
		PublishTimeout:   5 * time.Second,
		Consumers:        1,
		FetchBatch:       500,
		E2ETimeout:       10 * time.Second,
		MaxBytes:         1 << 30,
		ChurnStart:       5 * time.Second,
		ChurnFor:         10 * time.Second,
		MaxRate:          msgopt.DefaultMaxRate(),
		KillWhich:        "leader",
		PublishRetries:   2,
		PublishRetryWait: 250 * time.Millisecond,
	}
}

// Validate returns the first problem of o as a one-line usage error.
func (o *Options) Validate() error {
	if err := o.validate(); err != nil {
		return usage.Errorf("%v", err)
	}
	return nil
}

func (o *Options) validate() error {
	if _, err := profiles().Find(o.Profile); err != nil {
		return err
	}
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
	case o.MaxRate.Validate("--nats-") != nil:
		return o.MaxRate.Validate("--nats-")
	case o.PublishRetries < 0 || o.PublishRetryWait <= 0:
		return fmt.Errorf("--nats-publish-retries must be ≥ 0 and --nats-publish-retry-wait > 0")
	}
	k, err := o.kill()
	if err != nil {
		return err
	}
	if k.Enabled() && o.Churning() {
		return fmt.Errorf("--kill-node and the churn options (--churn-nodes, --stream-churn-interval) each take the fault window: use one of them")
	}
	return nil
}

// kill is the parsed --kill-node.
func (o *Options) kill() (msgload.KillSpec, error) { return msgload.ParseKill(o.KillNode, o.KillWhich) }

// Churning tells whether the run changes the cluster during the load
// (--churn-interval or --churn-nodes).
func (o *Options) Churning() bool { return o.ChurnInterval > 0 || o.ChurnNodes }

// profiles returns the nats profiles: the messaging core's seed profiles
// translated into nats settings, by option (flag) name. See docs/nats.md
// for how they map to the seed's Kafka settings.
func profiles() workload.Profiles[Options] {
	ps := workload.Profiles[Options]{Flag: "nats-profile", Defaults: DefaultOptions,
		Applied: func(o *Options) string { return o.applied }}
	for _, sp := range msgload.SeedProfiles() {
		ps.List = append(ps.List, workload.Profile[Options]{Name: sp.Name, Settings: natsSettings(sp)})
	}
	return ps
}

// natsSettings translates a seed profile: replicas are the stream's, a
// quorum ack is a synchronous publish (the PubAck comes after a quorum
// stored the message), a flush before every ack is sync_interval: always.
// The partitions of the Kafka profile have no NATS setting: streams follow
// the node count. Settings are in flag order.
func natsSettings(sp msgload.SeedProfile) []workload.Setting[Options] {
	fsync, mode := "default", "async"
	if sp.FlushEvery {
		fsync = "always"
	}
	if sp.Quorum {
		mode = "sync"
	}
	return []workload.Setting[Options]{
		workload.Set(flagFsync, func(o *Options) *string { return &o.Fsync }, fsync),
		workload.Set(flagMode, func(o *Options) *string { return &o.PublishMode }, mode),
		workload.Set(flagReplicas, func(o *Options) *int { return &o.Replicas }, sp.Replicas),
	}
}

// ApplyProfile sets every setting of profile name on o and names it in
// o.Profile.
func (o *Options) ApplyProfile(name string) error {
	if err := profiles().Apply(o, name); err != nil {
		return err
	}
	o.Profile, o.applied = name, name
	return nil
}

// WithProfile returns o with its profile (Profile) applied to the
// settings for which explicit is false: those the user did not choose by
// their flag. With explicit nil, the settings still at their
// DefaultOptions value take the profile's, unless ApplyProfile applied
// the profile already. The family runs with these options.
func (o Options) WithProfile(explicit func(option string) bool) (Options, error) {
	return profiles().WithProfile(o, o.Profile, explicit)
}

// Given tells whether the user chose option (a flag name) of o, its
// profile applied (WithProfile): by its flag (explicit), or, with
// explicit nil, for options built in Go, by a value other than the
// profile's.
func (o *Options) Given(explicit func(option string) bool, option string) bool {
	return profiles().Given(o, o.Profile, explicit, option)
}

// ChangedFromDefaults returns a function telling which of the settings
// the profiles set (by flag name) differ in o from DefaultOptions: what a
// program chose when it built o, which a profile then leaves alone.
func (o Options) ChangedFromDefaults() func(option string) bool {
	return profiles().ChangedIn(o)
}

// ProfileOptions returns the options (flag names) each profile sets, by
// profile name.
func ProfileOptions() map[string][]string { return profiles().Options() }
