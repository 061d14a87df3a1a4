package kafka

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TopicSpec is a topic to create: stampede kafka serve --topic
// NAME:PARTITIONS:RF.
type TopicSpec struct {
	Name       string
	Partitions int32
	RF         int16
}

// ParseTopicSpec parses NAME[:PARTITIONS[:RF]] (partitions and RF default
// to 1). Names follow Kafka's rule: letters, digits, '.', '_', '-', at most
// 249 characters, not "." or "..".
func ParseTopicSpec(s string) (TopicSpec, error) {
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return TopicSpec{}, fmt.Errorf("topic %q: want NAME:PARTITIONS:RF", s)
	}
	t := TopicSpec{Name: parts[0], Partitions: 1, RF: 1}
	if err := checkTopicName(t.Name); err != nil {
		return TopicSpec{}, err
	}
	if len(parts) > 1 {
		n, err := strconv.ParseInt(parts[1], 10, 32)
		if err != nil || n < 1 {
			return TopicSpec{}, fmt.Errorf("topic %q: partitions %q: want a whole number ≥ 1", s, parts[1])
		}
		t.Partitions = int32(n)
	}
	if len(parts) > 2 {
		n, err := strconv.ParseInt(parts[2], 10, 16)
		if err != nil || n < 1 {
			return TopicSpec{}, fmt.Errorf("topic %q: replication factor %q: want a whole number ≥ 1", s, parts[2])
		}
		t.RF = int16(n)
	}
	return t, nil
}

// checkTopicName applies Kafka's topic name rule.
func checkTopicName(n string) error {
	if n == "" || n == "." || n == ".." || len(n) > 249 {
		return fmt.Errorf("topic name %q: want 1 to 249 letters, digits, '.', '_' or '-' (not . or ..)", n)
	}
	for _, c := range n {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("topic name %q: want 1 to 249 letters, digits, '.', '_' or '-' (not . or ..)", n)
		}
	}
	return nil
}

// CreateTopics creates the topics on the cluster through its own Kafka
// API, as any client would.
func (e *Embedded) CreateTopics(ctx context.Context, specs []TopicSpec) error {
	if len(specs) == 0 {
		return nil
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(e.Addrs()...))
	if err != nil {
		return err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	for _, t := range specs {
		if int(t.RF) > e.brokers {
			return fmt.Errorf("topic %s: replication factor %d needs at least %d brokers (--brokers %d)", t.Name, t.RF, t.RF, e.brokers)
		}
		if err := createTopics(ctx, adm, []string{t.Name}, layout{Partitions: t.Partitions, RF: t.RF}); err != nil {
			return err
		}
	}
	return nil
}
