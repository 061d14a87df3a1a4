package natsload

import "github.com/stampede-bench/stampede/internal/workload"

// Profile names, from the seed's two configurations.
const (
	ProfileHighThroughput  = "high-throughput"
	ProfileHighReliability = "high-reliability"
)

// Profiles returns the settings of each profile, by option (flag) name.
// See docs/nats.md for how they map to the seed's Kafka settings.
func Profiles() []workload.Profile[Options] {
	replicas := func(o *Options) *int { return &o.Replicas }
	mode := func(o *Options) *string { return &o.PublishMode }
	fsync := func(o *Options) *string { return &o.Fsync }
	return []workload.Profile[Options]{
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
	}
}

func findProfile(name string) (workload.Profile[Options], error) {
	return workload.FindProfile(Profiles(), "nats-profile", name)
}

// ApplyProfile sets every setting of profile name on o and names it in
// o.Profile.
func (o *Options) ApplyProfile(name string) error {
	p, err := findProfile(name)
	if err != nil {
		return err
	}
	p.Apply(o, nil)
	o.Profile, o.applied = name, name
	return nil
}

// withProfile returns o with its profile applied to the settings for
// which explicit is false (nil: those still at their default value, unless
// ApplyProfile applied the profile already).
func (o Options) withProfile(explicit func(option string) bool) (Options, error) {
	p, err := findProfile(o.Profile)
	if err != nil {
		return o, err
	}
	if explicit == nil && o.applied == o.Profile {
		return o, nil
	}
	def := DefaultOptions()
	p.ApplyUnless(&o, explicit, &def)
	return o, nil
}

// given tells whether the user chose option: by its flag, or, for options
// built in Go (o with its profile applied), by changing it from the value
// the profile gives it.
func (o *Options) given(explicit func(option string) bool, option string) bool {
	if explicit != nil {
		return explicit(option)
	}
	p, err := findProfile(o.Profile)
	if err != nil {
		return false
	}
	def := DefaultOptions()
	p.Apply(&def, nil)
	return p.Changed(o, &def)(option)
}
