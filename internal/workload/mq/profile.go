package mq

import "github.com/stampede-bench/stampede/internal/workload"

// Profile names, from the seed's two configurations.
const (
	ProfileHighThroughput  = "high-throughput"
	ProfileHighReliability = "high-reliability"
)

// Profiles returns the kafka profiles: the settings of each, by option
// (flag) name.
func Profiles() workload.Profiles[Options] {
	rf := func(o *Options) *int16 { return &o.ReplicationFactor }
	parts := func(o *Options) *int32 { return &o.Partitions }
	acks := func(o *Options) *string { return &o.Acks }
	return workload.Profiles[Options]{Flag: "kafka-profile", Defaults: DefaultOptions, List: []workload.Profile[Options]{
		// 1 replica, 1 partition, acks=1, asynchronous flush.
		{Name: ProfileHighThroughput, Settings: []workload.Setting[Options]{
			workload.Set(flagAcks, acks, "1"),
			workload.Set(flagPartitions, parts, 1),
			workload.Set(flagRF, rf, 1),
		}},
		// 3 replicas, 3 partitions, acks=all, min.insync.replicas=2 and a
		// flush after every message.
		{Name: ProfileHighReliability, Settings: []workload.Setting[Options]{
			workload.Set(flagAcks, acks, "all"),
			workload.Set(flagFlushMsgs, func(o *Options) *int64 { return &o.FlushMessages }, 1),
			workload.Set(flagMinISR, func(o *Options) *int { return &o.MinInsyncReplicas }, 2),
			workload.Set(flagPartitions, parts, 3),
			workload.Set(flagRF, rf, 3),
		}},
	}}
}

// ApplyProfile sets every setting of profile name on o and names it in
// o.Profile.
func (o *Options) ApplyProfile(name string) error {
	if err := Profiles().Apply(o, name); err != nil {
		return err
	}
	o.Profile, o.applied = name, name
	return nil
}

// withProfile returns o with its profile applied to the settings for
// which explicit is false (nil: those still at their default value, unless
// ApplyProfile applied the profile already).
func (o Options) withProfile(explicit func(option string) bool) (Options, error) {
	o.TopicConfigs = append([]string(nil), o.TopicConfigs...)
	if explicit == nil && o.applied == o.Profile {
		_, err := Profiles().Find(o.Profile)
		return o, err
	}
	err := Profiles().Resolve(&o, o.Profile, explicit)
	return o, err
}
