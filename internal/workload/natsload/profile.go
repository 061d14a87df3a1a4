package natsload

import "github.com/stampede-bench/stampede/internal/workload"

// Profile names, from the seed's two configurations.
const (
	ProfileHighThroughput  = "high-throughput"
	ProfileHighReliability = "high-reliability"
)

// Profiles returns the nats profiles: the settings of each, by option
// (flag) name. See docs/nats.md for how they map to the seed's Kafka
// settings.
func Profiles() workload.Profiles[Options] {
	replicas := func(o *Options) *int { return &o.Replicas }
	mode := func(o *Options) *string { return &o.PublishMode }
	fsync := func(o *Options) *string { return &o.Fsync }
	return workload.Profiles[Options]{Flag: "nats-profile", Defaults: DefaultOptions, List: []workload.Profile[Options]{
		// One replica, asynchronous publish, background fsync.
		{Name: ProfileHighThroughput, Settings: []workload.Setting[Options]{
			workload.Set(flagFsync, fsync, "default"),
			workload.Set(flagMode, mode, "async"),
			workload.Set(flagReplicas, replicas, 1),
		}},
		// Three replicas (the PubAck comes after a quorum stored the
		// message), synchronous publish, fsync before every ack.
		{Name: ProfileHighReliability, Settings: []workload.Setting[Options]{
			workload.Set(flagFsync, fsync, "always"),
			workload.Set(flagMode, mode, "sync"),
			workload.Set(flagReplicas, replicas, 3),
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
