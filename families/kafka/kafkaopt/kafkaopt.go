// Package kafkaopt holds the kafka family's options, with its
// high-throughput and high-reliability profiles: the typed settings that
// package families/kafka names as kafka.Options.
package kafkaopt

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/families/msgopt"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/kafka/kafkaconf"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// Profile names, from the seed's two configurations (msgload.SeedProfiles).
const (
	ProfileHighThroughput  = msgload.ProfileHighThroughput
	ProfileHighReliability = msgload.ProfileHighReliability
)

// Options are the kafka family's settings. Each field's comment gives its
// unit, its default (DefaultOptions) and the run flag that sets it. Start
// from DefaultOptions, change fields, then Validate.
type Options struct {
	// Profile is ProfileHighThroughput (default) or ProfileHighReliability:
	// the seed's settings for replication, partitions, acks and topic
	// configs (--kafka-profile). New applies it to those of the profile's
	// settings that still hold their DefaultOptions value: a setting
	// changed from the default wins, as an explicit flag wins over
	// --kafka-profile. ApplyProfile sets them all.
	Profile string
	// Brokers is the number of brokers of the embedded cluster, used
	// without a target (default 3; --brokers).
	Brokers int
	// Topics is how many topics the load spreads over (default 1;
	// --topics), named TopicPrefix-0, TopicPrefix-1, ... (default prefix
	// "stampede"; --topic-prefix).
	Topics      int
	TopicPrefix string
	// Partitions per topic (default 1; --partitions) and ReplicationFactor
	// (default 1; --replication-factor) of the topics a run creates.
	Partitions        int32
	ReplicationFactor int16
	// Producers per topic: franz-go clients shared by the VUs (default 1;
	// --producers). Consumers per topic, each owning a static share of the
	// partitions (default 1; --consumers).
	Producers int
	Consumers int
	// Acks is "0", "1" (default) or "all" (--acks).
	Acks string
	// Linger is how long a partition waits for more records before a
	// batch is sent (default 0: send as soon as possible; --linger).
	Linger time.Duration
	// PerIteration is how many messages a kafka.Produce iteration sends
	// before it waits for their acknowledgements (default 1;
	// --messages-per-iteration): VUs × PerIteration messages are in
	// flight.
	PerIteration int
	// Window is how many of its messages a kafka.Produce VU may have
	// unacknowledged (default 1: an iteration waits for its own
	// acknowledgement; --produce-window). With W > 1 an iteration returns
	// once its message is handed to the client: VUs × W messages are in
	// flight, each still recorded with its own latency from its intended
	// start.
	Window int
	// MaxInFlight is the produce requests in flight per broker
	// (max.in.flight.requests.per.connection; default 5; --max-in-flight).
	// With idempotence it is always 5, Kafka's limit.
	MaxInFlight int
	// BatchBytes caps a record batch in bytes (Kafka batch.size; default
	// 1000012; --batch-bytes).
	BatchBytes int32
	// Compression is none (default), gzip, snappy, lz4 or zstd
	// (--compression-type).
	Compression string
	// Idempotence is auto (default: on with acks=all), true or false
	// (--idempotence).
	Idempotence string
	// MessageSize is the message value size in bytes (default 2048;
	// --message-size).
	MessageSize int
	// Payload is "random" (default; incompressible) or "compressible"
	// (text-like) (--payload).
	Payload string
	// MinInsyncReplicas, FlushMessages and FlushMs (milliseconds) become
	// the topic configs min.insync.replicas, flush.messages and flush.ms
	// when > 0 (default 0: the broker's default; --min-insync-replicas,
	// --flush-messages, --flush-ms).
	MinInsyncReplicas int
	FlushMessages     int64
	FlushMs           int64
	// TopicConfigs are extra topic configs, KEY=VALUE each, winning over
	// the fields above (default none; --topic-config, repeatable).
	TopicConfigs []string
	// DeleteTopics deletes the topics this run created when it ends
	// (default false; --delete-topics).
	DeleteTopics bool
	// DeliveryTimeout bounds how long a record may take to be acknowledged,
	// retries included (default 30s, at least 1s; --delivery-timeout).
	// Retries caps produce retries per batch (default -1: until the
	// delivery timeout; --produce-retries).
	DeliveryTimeout time.Duration
	Retries         int
	// E2ETimeout is how long kafka.EndToEnd waits for a produced message to
	// be consumed before counting it lost (default 10s; --e2e-timeout).
	E2ETimeout time.Duration
	// ConsumeFrom is where kafka.Consume starts: earliest (default) or
	// latest (--consume-from).
	ConsumeFrom string
	// ChurnInterval creates and deletes an extra topic every interval
	// (default 0: no churn; --churn-interval) between ChurnStart (default
	// 5s; --churn-start) and ChurnStart+ChurnFor (default 10s; --churn-for)
	// after the scenario starts.
	ChurnInterval time.Duration
	ChurnStart    time.Duration
	ChurnFor      time.Duration
	// ChurnBrokers adds a broker to the embedded cluster when the churn
	// window opens and removes it when it closes: membership events
	// (default false; --churn-brokers).
	ChurnBrokers bool
	// MaxRate holds the knobs of kafka.MaxRate's search (--max-rate-start,
	// -step, -errors, -precision).
	msgopt.MaxRate
	// EmbeddedRetention is the bytes the embedded cluster keeps per
	// partition (default 64 MiB; --embedded-retention), which bounds its
	// memory.
	EmbeddedRetention int64
	// EmbeddedBlackhole makes the embedded cluster acknowledge but discard
	// produced records: produce-only benchmarks, nothing can be consumed
	// (default false; --embedded-blackhole).
	EmbeddedBlackhole bool

	// applied is the profile ApplyProfile set: New does not apply it again.
	applied string
}

// Flag names whose values a profile may set.
const (
	flagPartitions = "partitions"
	flagRF         = "replication-factor"
	flagAcks       = "acks"
	flagMinISR     = "min-insync-replicas"
	flagFlushMsgs  = "flush-messages"
)

// DefaultOptions returns the defaults of a bare `stampede run
// kafka.Produce`: the high-throughput profile.
func DefaultOptions() Options {
	return Options{
		Profile:           ProfileHighThroughput,
		Brokers:           3,
		Topics:            1,
		TopicPrefix:       "stampede",
		Partitions:        1,
		ReplicationFactor: 1,
		Producers:         1,
		Consumers:         1,
		Acks:              "1",
		PerIteration:      1,
		Window:            1,
		MaxInFlight:       5,
		BatchBytes:        1000012,
		Compression:       "none",
		Idempotence:       "auto",
		MessageSize:       msgload.MessageSize,
		Payload:           "random",
		DeliveryTimeout:   30 * time.Second,
		Retries:           -1,
		E2ETimeout:        10 * time.Second,
		ConsumeFrom:       "earliest",
		ChurnStart:        5 * time.Second,
		ChurnFor:          10 * time.Second,
		MaxRate:           msgopt.DefaultMaxRate(),
		EmbeddedRetention: 64 << 20,
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
	case o.Brokers < 1:
		return fmt.Errorf("--brokers must be ≥ 1")
	case o.Topics < 1:
		return fmt.Errorf("--topics must be ≥ 1")
	case o.TopicPrefix == "" || strings.ContainsAny(o.TopicPrefix, " /\\,:"):
		return fmt.Errorf("--topic-prefix %q: use letters, digits, '.', '_' and '-'", o.TopicPrefix)
	case o.Partitions < 1:
		return fmt.Errorf("--partitions must be ≥ 1")
	case o.ReplicationFactor < 1:
		return fmt.Errorf("--replication-factor must be ≥ 1")
	case o.Producers < 1:
		return fmt.Errorf("--producers must be ≥ 1")
	case o.Consumers < 0:
		return fmt.Errorf("--consumers must not be negative")
	case o.Linger < 0:
		return fmt.Errorf("--linger must not be negative")
	case o.MessageSize < 0 || o.MessageSize > 64<<20:
		return fmt.Errorf("--message-size must be between 0 and 64 MiB")
	case o.PerIteration < 1 || o.PerIteration > 1<<16:
		return fmt.Errorf("--messages-per-iteration must be between 1 and 65536")
	case o.Window < 1 || o.Window > 1<<16:
		return fmt.Errorf("--produce-window must be between 1 and 65536")
	case o.Window > 1 && o.PerIteration > 1:
		return fmt.Errorf("--produce-window and --messages-per-iteration: use one of them (a window keeps one message per iteration)")
	case o.MaxInFlight < 1:
		return fmt.Errorf("--max-in-flight must be ≥ 1")
	case o.BatchBytes < 1:
		return fmt.Errorf("--batch-bytes must be ≥ 1")
	case o.DeliveryTimeout < time.Second:
		return fmt.Errorf("--delivery-timeout must be ≥ 1s (franz-go's minimum)")
	case o.E2ETimeout <= 0:
		return fmt.Errorf("--e2e-timeout must be > 0")
	case o.Retries < -1:
		return fmt.Errorf("--produce-retries must be ≥ -1")
	case o.ChurnInterval < 0 || o.ChurnStart < 0 || o.ChurnFor < 0:
		return fmt.Errorf("--churn-interval, --churn-start and --churn-for must not be negative")
	case o.MaxRate.Validate("--") != nil:
		return o.MaxRate.Validate("--")
	case o.EmbeddedRetention < 0:
		return fmt.Errorf("--embedded-retention must not be negative")
	case o.MinInsyncReplicas < 0 || o.FlushMessages < 0 || o.FlushMs < 0:
		return fmt.Errorf("--min-insync-replicas, --flush-messages and --flush-ms must not be negative")
	}
	if _, err := kafkaconf.Acks(o.Acks); err != nil {
		return err
	}
	if _, err := kafkaconf.Codec(o.Compression); err != nil {
		return err
	}
	if idem, err := kafkaconf.Idempotent(o.Acks, o.Idempotence); err != nil {
		return err
	} else if idem && o.MaxInFlight != 5 {
		return fmt.Errorf("--max-in-flight %d: idempotent producers keep 5 in flight (Kafka's limit); use --idempotence=false to change it", o.MaxInFlight)
	}
	if o.Payload != "random" && o.Payload != "compressible" {
		return fmt.Errorf("--payload %q: want random or compressible", o.Payload)
	}
	if o.ConsumeFrom != "earliest" && o.ConsumeFrom != "latest" {
		return fmt.Errorf("--consume-from %q: want earliest or latest", o.ConsumeFrom)
	}
	cfgs, err := kafkaconf.TopicConfigs(o.MinInsyncReplicas, o.FlushMessages, o.FlushMs, o.TopicConfigs)
	if err != nil {
		return err
	}
	if v, ok := cfgs["min.insync.replicas"]; ok {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil || n < 1:
			return fmt.Errorf("min.insync.replicas %q: want a whole number ≥ 1", v)
		case n > int(o.ReplicationFactor):
			return fmt.Errorf("min.insync.replicas %d is above the replication factor %d: a broker rejects every acks=all write to such a topic (NOT_ENOUGH_REPLICAS); lower --min-insync-replicas or raise --replication-factor", n, o.ReplicationFactor)
		}
	}
	if int(o.BatchBytes) < o.MessageSize+64 {
		return fmt.Errorf("--batch-bytes %d cannot hold one %d-byte message", o.BatchBytes, o.MessageSize)
	}
	return nil
}

// profiles returns the kafka profiles: the messaging core's seed profiles
// translated into kafka settings, by option (flag) name.
func profiles() workload.Profiles[Options] {
	ps := workload.Profiles[Options]{Flag: "kafka-profile", Defaults: DefaultOptions,
		Applied: func(o *Options) string { return o.applied }}
	for _, sp := range msgload.SeedProfiles() {
		ps.List = append(ps.List, workload.Profile[Options]{Name: sp.Name, Settings: kafkaSettings(sp)})
	}
	return ps
}

// kafkaSettings translates a seed profile: replicas are the replication
// factor, a quorum is acks=all with min.insync.replicas, a flush before
// every ack is flush.messages=1. Settings are in flag order.
func kafkaSettings(sp msgload.SeedProfile) []workload.Setting[Options] {
	acks := "1"
	if sp.Quorum {
		acks = "all"
	}
	s := []workload.Setting[Options]{workload.Set(flagAcks, func(o *Options) *string { return &o.Acks }, acks)}
	if sp.FlushEvery {
		s = append(s, workload.Set(flagFlushMsgs, func(o *Options) *int64 { return &o.FlushMessages }, 1))
	}
	if sp.MinInSync > 0 {
		s = append(s, workload.Set(flagMinISR, func(o *Options) *int { return &o.MinInsyncReplicas }, sp.MinInSync))
	}
	return append(s,
		workload.Set(flagPartitions, func(o *Options) *int32 { return &o.Partitions }, int32(sp.Partitions)),
		workload.Set(flagRF, func(o *Options) *int16 { return &o.ReplicationFactor }, int16(sp.Replicas)))
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
	o.TopicConfigs = append([]string(nil), o.TopicConfigs...)
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
