package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"

	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
)

// layout is what a topic must look like to be reused.
type layout struct {
	Partitions int32
	RF         int16
	Configs    map[string]string
	// AnyPartitions reuses a topic whatever its partition count: the run
	// chose Partitions from the broker count, the user did not.
	AnyPartitions bool
}

// errLayout marks a reused topic whose layout differs from the run's.
var errLayout = errors.New("topic layout mismatch")

// ensureTopics creates the missing topics with layout l and checks that
// existing ones match it. It returns the topics it created.
func ensureTopics(ctx context.Context, adm *kadm.Client, names []string, l layout) (created []string, err error) {
	details, err := adm.ListTopics(ctx, names...)
	if err != nil {
		return nil, fmt.Errorf("list topics: %s", kafkadrv.ErrorMessage(err))
	}
	var missing, existing []string
	for _, n := range names {
		d, ok := details[n]
		switch {
		case !ok || errors.Is(d.Err, kerr.UnknownTopicOrPartition):
			missing = append(missing, n)
		case d.Err != nil:
			return nil, fmt.Errorf("topic %s: %s", n, kafkadrv.ErrorMessage(d.Err))
		default:
			existing = append(existing, n)
			if err := checkLayout(d, l); err != nil {
				return nil, err
			}
		}
	}
	if len(existing) > 0 && len(l.Configs) > 0 {
		if err := checkConfigs(ctx, adm, existing, l.Configs); err != nil {
			return nil, err
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	if err := createTopics(ctx, adm, missing, l); err != nil {
		return nil, err
	}
	return missing, nil
}

// createTopics creates names with layout l.
func createTopics(ctx context.Context, adm *kadm.Client, names []string, l layout) error {
	cfgs := make(map[string]*string, len(l.Configs))
	for k, v := range l.Configs {
		cfgs[k] = kadm.StringPtr(v)
	}
	resp, err := adm.CreateTopics(ctx, l.Partitions, l.RF, cfgs, names...)
	if err != nil {
		return &topicError{Op: "create", Topic: strings.Join(names, ","), Reason: kafkadrv.ErrorMessage(err)}
	}
	for _, n := range names {
		r, ok := resp[n]
		if !ok {
			return &topicError{Op: "create", Topic: n, Reason: "no answer from the broker"}
		}
		if r.Err != nil && !errors.Is(r.Err, kerr.TopicAlreadyExists) {
			msg := kafkadrv.ErrorMessage(r.Err)
			if r.ErrMessage != "" {
				msg += " (" + r.ErrMessage + ")"
			}
			if errors.Is(r.Err, kerr.InvalidReplicationFactor) {
				msg += fmt.Sprintf(": replication factor %d needs at least %d brokers", l.RF, l.RF)
			}
			var ke *kerr.Error
			return &topicError{Op: "create", Topic: n, Reason: msg, Usage: errors.As(r.Err, &ke) && !ke.Retriable}
		}
	}
	return nil
}

func checkLayout(d kadm.TopicDetail, l layout) error {
	parts := int32(len(d.Partitions))
	rf := int16(0)
	for _, p := range d.Partitions {
		rf = max(rf, int16(len(p.Replicas)))
	}
	if (parts == l.Partitions || l.AnyPartitions) && rf == l.RF {
		return nil
	}
	return fmt.Errorf("%w: topic %s exists with %d partition(s) and replication factor %d, this run wants %d and %d; delete it, pick another --topic-prefix, or set --partitions %d --replication-factor %d",
		errLayout, d.Topic, parts, rf, l.Partitions, l.RF, parts, rf)
}

// checkConfigs compares the configs the run sets with what the broker
// reports for existing topics. Configs the broker does not report are not
// compared.
func checkConfigs(ctx context.Context, adm *kadm.Client, topics []string, want map[string]string) error {
	rcs, err := adm.DescribeTopicConfigs(ctx, topics...)
	if err != nil {
		return fmt.Errorf("describe topic configs: %s", kafkadrv.ErrorMessage(err))
	}
	for _, rc := range rcs {
		if rc.Err != nil {
			continue
		}
		have := map[string]string{}
		for _, c := range rc.Configs {
			have[c.Key] = c.MaybeValue()
		}
		var diffs []string
		for k, v := range want {
			if h, ok := have[k]; ok && h != v {
				diffs = append(diffs, fmt.Sprintf("%s=%s (wants %s)", k, h, v))
			}
		}
		sort.Strings(diffs)
		if len(diffs) > 0 {
			return fmt.Errorf("%w: topic %s exists with %s; delete it or pick another --topic-prefix", errLayout, rc.Name, strings.Join(diffs, ", "))
		}
	}
	return nil
}

// deleteTopics deletes names, ignoring topics already gone.
func deleteTopics(ctx context.Context, adm *kadm.Client, names []string) error {
	if len(names) == 0 {
		return nil
	}
	resp, err := adm.DeleteTopics(ctx, names...)
	if err != nil {
		return &topicError{Op: "delete", Topic: strings.Join(names, ","), Reason: kafkadrv.ErrorMessage(err)}
	}
	for _, r := range resp.Sorted() {
		if r.Err != nil && !errors.Is(r.Err, kerr.UnknownTopicOrPartition) {
			return &topicError{Op: "delete", Topic: r.Topic, Reason: kafkadrv.ErrorMessage(r.Err)}
		}
	}
	return nil
}

// topicError is a failed topic creation or deletion; Reason is the stable
// part (the broker's error code) for error breakdowns.
type topicError struct {
	Op, Topic, Reason string
	// Usage marks a refusal caused by the request (bad replication
	// factor, config, authorization), not by the cluster's state.
	Usage bool
}

func (e *topicError) Error() string { return e.Op + " topic " + e.Topic + ": " + e.Reason }
