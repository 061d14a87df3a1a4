// Package kafkaconf turns the kafka family's option values into franz-go
// producer settings and topic configs, for the options' validation
// (families/kafka/kafkaopt) and the family's clients alike. Its errors
// name the options by their run flags.
package kafkaconf

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Acks parses --acks: "0", "1" (or "leader") or "all" (or "-1").
func Acks(acks string) (kgo.Acks, error) {
	switch strings.ToLower(acks) {
	case "0":
		return kgo.NoAck(), nil
	case "1", "leader":
		return kgo.LeaderAck(), nil
	case "all", "-1":
		return kgo.AllISRAcks(), nil
	}
	return kgo.Acks{}, fmt.Errorf("--acks %q: want 0, 1 or all", acks)
}

// Codec parses --compression-type.
func Codec(compression string) (kgo.CompressionCodec, error) {
	switch strings.ToLower(compression) {
	case "none", "":
		return kgo.NoCompression(), nil
	case "gzip":
		return kgo.GzipCompression(), nil
	case "snappy":
		return kgo.SnappyCompression(), nil
	case "lz4":
		return kgo.Lz4Compression(), nil
	case "zstd":
		return kgo.ZstdCompression(), nil
	}
	return kgo.CompressionCodec{}, fmt.Errorf("--compression-type %q: want none, gzip, snappy, lz4 or zstd", compression)
}

// Idempotent resolves --idempotence given --acks: Kafka allows
// idempotence only with acks=all.
func Idempotent(acks, idempotence string) (bool, error) {
	all := strings.EqualFold(acks, "all") || acks == "-1"
	switch strings.ToLower(idempotence) {
	case "auto", "":
		return all, nil
	case "true":
		if !all {
			return false, fmt.Errorf("--idempotence=true needs --acks all (Kafka requires it)")
		}
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("--idempotence %q: want auto, true or false", idempotence)
}

// TopicConfigs collects the topic configs set by options
// (--min-insync-replicas, --flush-messages, --flush-ms, each when > 0)
// and --topic-config (extra, KEY=VALUE each), the latter winning.
func TopicConfigs(minInsyncReplicas int, flushMessages, flushMs int64, extra []string) (map[string]string, error) {
	m := map[string]string{}
	if minInsyncReplicas > 0 {
		m["min.insync.replicas"] = strconv.Itoa(minInsyncReplicas)
	}
	if flushMessages > 0 {
		m["flush.messages"] = strconv.FormatInt(flushMessages, 10)
	}
	if flushMs > 0 {
		m["flush.ms"] = strconv.FormatInt(flushMs, 10)
	}
	for _, kv := range extra {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("--topic-config %q: want KEY=VALUE", kv)
		}
		m[k] = strings.TrimSpace(v)
	}
	return m, nil
}
