package nats

import (
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// Profile names, from the seed's two configurations (msgload.SeedProfiles).
const (
	ProfileHighThroughput  = msgload.ProfileHighThroughput
	ProfileHighReliability = msgload.ProfileHighReliability
)

// Profiles returns the nats profiles: the messaging core's seed profiles
// translated into nats settings, by option (flag) name. See docs/nats.md
// for how they map to the seed's Kafka settings.
func Profiles() workload.Profiles[Options] {
	ps := workload.Profiles[Options]{Flag: "nats-profile", Defaults: DefaultOptions}
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
