package kafka

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"

	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// readBackKeys are topic configs always read back, asked for or not: the
// ones that decide durability.
func readBackKeys() []string { return []string{"min.insync.replicas", "flush.messages", "flush.ms"} }

// topicsReadBack is what the cluster says of the load topics: the layout
// from Metadata and the configs from DescribeConfigs.
type topicsReadBack struct {
	topics     int
	partitions map[int]int // partitions per topic → topics
	rf         map[int]int // replication factor → partitions
	// leaders counts partition leaders per broker id, over all topics.
	leaders map[int32]int
	brokers []int32
	// configs of the first topic: value and source, by key; missing keys
	// are not reported by the broker.
	first   string
	configs map[string]kadm.Config
	cfgErr  string
}

// readBack asks the cluster about topics. It never fails: what it cannot
// read is said so in the note.
func readBack(ctx context.Context, adm *kadm.Client, topics []string) *topicsReadBack {
	rb := &topicsReadBack{partitions: map[int]int{}, rf: map[int]int{}, leaders: map[int32]int{}, configs: map[string]kadm.Config{}}
	if md, err := adm.Metadata(ctx, topics...); err == nil {
		for _, b := range md.Brokers {
			rb.brokers = append(rb.brokers, b.NodeID)
			rb.leaders[b.NodeID] += 0
		}
		for _, t := range topics {
			d, ok := md.Topics[t]
			if !ok || d.Err != nil {
				continue
			}
			rb.topics++
			rb.partitions[len(d.Partitions)]++
			for _, p := range d.Partitions {
				rb.rf[len(p.Replicas)]++
				rb.leaders[p.Leader]++
			}
		}
	}
	sort.Slice(rb.brokers, func(i, j int) bool { return rb.brokers[i] < rb.brokers[j] })
	if len(topics) == 0 {
		return rb
	}
	rb.first = topics[0]
	rcs, err := adm.DescribeTopicConfigs(ctx, topics[0])
	if err != nil {
		rb.cfgErr = kafkadrv.ErrorMessage(err)
		return rb
	}
	for _, rc := range rcs {
		if rc.Err != nil {
			rb.cfgErr = kafkadrv.ErrorMessage(rc.Err)
			continue
		}
		for _, c := range rc.Configs {
			rb.configs[c.Key] = c
		}
	}
	return rb
}

// note says what was read back: the layout, the leaders per broker, and
// for every config the run asked for or that decides durability, the
// broker's value and its source, or "not read back" when the broker did
// not report it. Asked-for values that differ are named.
func (rb *topicsReadBack) note(asked map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kafka topics read back from the cluster (Metadata, DescribeConfigs): %d topic(s), partitions per topic %s, replication factor %s; partition leaders per broker %s",
		rb.topics, countsOf(rb.partitions), countsOf(rb.rf), rb.leaderList())
	keys := map[string]bool{}
	for _, k := range readBackKeys() {
		keys[k] = true
	}
	for k := range asked {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var got, missing []string
	for _, k := range sorted {
		c, ok := rb.configs[k]
		want, wanted := asked[k]
		if !ok {
			if wanted {
				missing = append(missing, k+" (asked "+want+")")
			} else {
				missing = append(missing, k)
			}
			continue
		}
		s := k + "=" + c.MaybeValue()
		if src := c.Source.String(); src != "" && src != "UNKNOWN" {
			s += " (" + strings.ToLower(strings.TrimSuffix(src, "_CONFIG")) + ")"
		}
		if wanted && c.MaybeValue() != want {
			s += " NOT the asked " + want
		}
		got = append(got, s)
	}
	if rb.first != "" {
		fmt.Fprintf(&b, "; topic configs of %s: ", rb.first)
		if len(got) == 0 {
			b.WriteString("none reported")
		} else {
			b.WriteString(strings.Join(got, ", "))
		}
		if len(missing) > 0 {
			b.WriteString("; not read back (the broker did not report them): " + strings.Join(missing, ", "))
		}
		if rb.cfgErr != "" {
			b.WriteString("; DescribeConfigs: " + rb.cfgErr)
		}
	}
	return b.String()
}

// leaderList is "b0 1, b1 1, b2 1" over the brokers of the metadata.
func (rb *topicsReadBack) leaderList() string {
	if len(rb.brokers) == 0 {
		return "unknown"
	}
	parts := make([]string, 0, len(rb.brokers))
	for _, id := range rb.brokers {
		parts = append(parts, "b"+strconv.Itoa(int(id))+" "+strconv.Itoa(rb.leaders[id]))
	}
	return strings.Join(parts, ", ")
}

// countsOf renders {3: 2, 1: 1} as "1 (×1), 3 (×2)", or "-" when empty.
func countsOf(m map[int]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	if len(keys) == 1 {
		return strconv.Itoa(keys[0])
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d (×%d)", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// leading counts the brokers that lead at least one load partition.
func (rb *topicsReadBack) leading() int {
	k := 0
	for id, n := range rb.leaders {
		if n > 0 && id >= 0 {
			k++
		}
	}
	return k
}

// partitionCount is the number of load partitions read back.
func (rb *topicsReadBack) partitionCount() int {
	n := 0
	for parts, topics := range rb.partitions {
		n += parts * topics
	}
	return n
}

// layout is where the load's writes go, as read back: partitions, brokers
// and the partitions each leads (msgload.Layout); auto tells that the
// partitions followed the broker count, placed that stampede placed the
// leaders (the embedded cluster, Embedded.SpreadLeaders).
func (rb *topicsReadBack) layout(vus int, auto, placed bool) msgload.Layout {
	leaders := make(map[string]int, len(rb.leaders))
	for id, n := range rb.leaders {
		name := "?"
		if id >= 0 {
			name = "b" + strconv.Itoa(int(id))
		}
		leaders[name] += n
	}
	l := msgload.Layout{Parts: rb.partitionCount(), Word: "partition", Nodes: len(rb.brokers), Leaders: leaders, VUs: vus, Flag: "--partitions"}
	switch {
	case auto && placed:
		l.Auto = "one partition per broker in each topic, partition k of the load led by broker k mod N: --partitions overrides"
	case auto:
		l.Auto = "one partition per broker in each topic: --partitions overrides"
	case placed:
		l.Auto = "partition k of the load led by broker k mod N"
	}
	return l
}
