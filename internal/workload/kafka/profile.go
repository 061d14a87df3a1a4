package kafka

import (
	"github.com/stampede-bench/stampede/families/kafka/kafkaopt"
)

// Profile names, from the seed's two configurations (msgload.SeedProfiles).
const (
	ProfileHighThroughput  = kafkaopt.ProfileHighThroughput
	ProfileHighReliability = kafkaopt.ProfileHighReliability
)

// withProfile returns o with its profile applied (Options.WithProfile).
func withProfile(o Options, explicit func(option string) bool) (Options, error) {
	return o.WithProfile(explicit)
}

// given tells whether the user chose option of o (Options.Given).
func given(o *Options, explicit func(option string) bool, option string) bool {
	return o.Given(explicit, option)
}
