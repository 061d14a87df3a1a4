package mq

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

// Profiles returns each profile's flag values. Flags the user gave
// explicitly win over the profile.
func Profiles() map[string]map[string]string {
	return map[string]map[string]string{
		// 1 replica, 1 partition, acks=1, asynchronous flush.
		ProfileHighThroughput: {
			flagRF: "1", flagPartitions: "1", flagAcks: "1",
		},
		// 3 replicas, 3 partitions, acks=all, min.insync.replicas=2 and a
		// flush after every message.
		ProfileHighReliability: {
			flagRF: "3", flagPartitions: "3", flagAcks: "all",
			flagMinISR: "2", flagFlushMsgs: "1",
		},
	}
}

// applyProfile sets the profile's values on the flags for which changed
// returns false. set assigns one flag value by name.
func applyProfile(name string, changed func(string) bool, set func(name, value string) error) error {
	all := Profiles()
	p, ok := all[name]
	if !ok {
		names := make([]string, 0, len(all))
		for n := range all {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("--kafka-profile %q: want %s", name, strings.Join(names, " or "))
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
