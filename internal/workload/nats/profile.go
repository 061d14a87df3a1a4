package nats

import (
	"github.com/stampede-bench/stampede/families/nats/natsopt"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Profile names, from the seed's two configurations (msgload.SeedProfiles).
const (
	ProfileHighThroughput  = natsopt.ProfileHighThroughput
	ProfileHighReliability = natsopt.ProfileHighReliability
)

// Profiles returns the nats profiles: the messaging core's seed profiles
// translated into nats settings, by option (flag) name. Package natsopt
// declares them, beside Options.ApplyProfile; see docs/nats.md for how
// they map to the seed's Kafka settings.
func Profiles() workload.Profiles[Options] { return workload.ProfilesOf[Options]() }

// withProfile returns o with its profile applied to the settings for
// which explicit is false (nil: those still at their default value, unless
// ApplyProfile applied the profile already).
func withProfile(o Options, explicit func(option string) bool) (Options, error) {
	ps := Profiles()
	if explicit == nil && ps.Applied(&o) == o.Profile {
		_, err := ps.Find(o.Profile)
		return o, err
	}
	err := ps.Resolve(&o, o.Profile, explicit)
	return o, err
}

// given tells whether the user chose option of o (profile applied): by
// its flag, or, for options built in Go, by a value other than the
// profile's.
func given(o *Options, explicit func(option string) bool, option string) bool {
	return Profiles().Given(o, o.Profile, explicit, option)
}
