package kafka

import (
	"github.com/stampede-bench/stampede/families/kafka/kafkaopt"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Profile names, from the seed's two configurations (msgload.SeedProfiles).
const (
	ProfileHighThroughput  = kafkaopt.ProfileHighThroughput
	ProfileHighReliability = kafkaopt.ProfileHighReliability
)

// Profiles returns the kafka profiles: the messaging core's seed profiles
// translated into kafka settings, by option (flag) name. Package kafkaopt
// declares them, beside Options.ApplyProfile.
func Profiles() workload.Profiles[Options] { return workload.ProfilesOf[Options]() }

// withProfile returns o with its profile applied to the settings for
// which explicit is false (nil: those still at their default value, unless
// ApplyProfile applied the profile already).
func withProfile(o Options, explicit func(option string) bool) (Options, error) {
	o.TopicConfigs = append([]string(nil), o.TopicConfigs...)
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
