package natsload

import (
	"fmt"
	"sort"
	"strings"
)

// Profile names, from the seed's two configurations.
const (
	ProfileHighThroughput  = "high-throughput"
	ProfileHighReliability = "high-reliability"
)

// Profiles returns each profile's flag values; flags given explicitly win.
// See docs/nats.md for how they map to the seed's Kafka settings.
func Profiles() map[string]map[string]string {
	return map[string]map[string]string{
		// One replica, asynchronous publish, background fsync.
		ProfileHighThroughput: {flagReplicas: "1", flagMode: "async", flagFsync: "default"},
		// Three replicas (the PubAck comes after a quorum stored the
		// message), synchronous publish, fsync before every ack.
		ProfileHighReliability: {flagReplicas: "3", flagMode: "sync", flagFsync: "always"},
	}
}

// applyProfile sets the profile's values on the flags changed reports as
// not given; set assigns one flag by name.
func applyProfile(name string, changed func(string) bool, set func(name, value string) error) error {
	all := Profiles()
	p, ok := all[name]
	if !ok {
		names := make([]string, 0, len(all))
		for n := range all {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("--nats-profile %q: want %s", name, strings.Join(names, " or "))
	}
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if changed(k) {
			continue
		}
		if err := set(k, p[k]); err != nil {
			return fmt.Errorf("profile %s: %s=%s: %w", name, k, p[k], err)
		}
	}
	return nil
}
