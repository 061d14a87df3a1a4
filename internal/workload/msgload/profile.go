package msgload

// Profile names: the seed's two configurations.
const (
	ProfileHighThroughput  = "high-throughput"
	ProfileHighReliability = "high-reliability"
)

// MessageSize is the seed's message size, 2 KB: the default payload of
// both families (--message-size, --nats-message-size).
const MessageSize = 2048

// SeedProfile is one of the seed's configurations, said once for both
// families in broker-neutral terms; each family translates it into its own
// settings (kafka: acks, replication factor, partitions, topic configs;
// nats: stream replicas, publish mode, fsync), so that
// --kafka-profile X and --nats-profile X ask the same of their brokers.
type SeedProfile struct {
	Name string
	// Replicas is how many copies of every message the broker keeps
	// (Kafka replication factor, NATS stream replicas).
	Replicas int
	// Partitions is the partitions per topic of the Kafka profile; NATS
	// streams have none (its streams follow the node count instead).
	Partitions int
	// Quorum: a message counts once a quorum of its replicas stored it
	// (Kafka acks=all with MinInSync; NATS a synchronous publish waiting
	// for the PubAck, which JetStream sends after the quorum). Without
	// it, the leader's acknowledgement is enough and publishes are
	// pipelined (acks=1; async publish).
	Quorum bool
	// MinInSync is the replicas that must hold a message before a quorum
	// ack (Kafka min.insync.replicas; 0: the broker's default; a NATS
	// quorum is always a majority).
	MinInSync int
	// FlushEvery: every message is written to disk (fsync) before it is
	// acknowledged (Kafka flush.messages=1; NATS sync_interval: always).
	FlushEvery bool
}

// SeedProfiles returns the seed's profiles: high-throughput (one replica,
// one partition, leader acks, background flush) and high-reliability
// (three replicas and partitions, quorum acks with two in sync, a flush
// before every ack). 2 KB messages in both (MessageSize).
func SeedProfiles() []SeedProfile {
	return []SeedProfile{
		{Name: ProfileHighThroughput, Replicas: 1, Partitions: 1},
		{Name: ProfileHighReliability, Replicas: 3, Partitions: 3, Quorum: true, MinInSync: 2, FlushEvery: true},
	}
}
