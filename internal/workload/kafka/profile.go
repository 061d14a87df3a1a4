package kafka

import (
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// Profile names, from the seed's two configurations (msgload.SeedProfiles).
const (
	ProfileHighThroughput  = msgload.ProfileHighThroughput
	ProfileHighReliability = msgload.ProfileHighReliability
)

// Profiles returns the kafka profiles: the messaging core's seed profiles
// translated into kafka settings, by option (flag) name.
func Profiles() workload.Profiles[Options] {
	ps := workload.Profiles[Options]{Flag: "kafka-profile", Defaults: DefaultOptions}
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

// given tells whether the user chose option of o (profile applied): by
// its flag, or, for options built in Go, by a value other than the
// profile's.
func (o *Options) given(explicit func(option string) bool, option string) bool {
	return Profiles().Given(o, o.Profile, explicit, option)
}
