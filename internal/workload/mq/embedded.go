package mq

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

// EmbeddedNote is said in every summary of a run on the embedded cluster.
const EmbeddedNote = "embedded in-memory kfake cluster (%d brokers): throughput reflects the client and an in-memory test broker, not a real broker"

// Embedded is an in-process Kafka-protocol cluster (franz-go's kfake)
// listening on loopback ports. It keeps records in memory.
type Embedded struct {
	// Cluster is the kfake cluster, for tests that inject faults.
	Cluster *kfake.Cluster
	brokers int
	stop    chan struct{}
	wg      sync.WaitGroup
	once    sync.Once
}

// EmbeddedOptions configure StartEmbedded.
type EmbeddedOptions struct {
	// Brokers is the broker count (default 3).
	Brokers int
	// Ports to listen on, one per broker; nil picks free loopback ports.
	Ports []int
	// Retention is the bytes kept per partition, enforced every second
	// (0: unbounded memory).
	Retention int64
	// Blackhole acknowledges produced records without storing them.
	Blackhole bool
}

// StartEmbedded starts an embedded cluster. Close stops it.
func StartEmbedded(o EmbeddedOptions) (*Embedded, error) {
	if o.Brokers < 1 {
		o.Brokers = 3
	}
	opts := []kfake.Opt{kfake.NumBrokers(o.Brokers), kfake.ClusterID("stampede-embedded")}
	if len(o.Ports) > 0 {
		if len(o.Ports) != o.Brokers {
			return nil, fmt.Errorf("embedded cluster: %d ports for %d brokers", len(o.Ports), o.Brokers)
		}
		opts = append(opts, kfake.Ports(o.Ports...))
	}
	if o.Retention > 0 {
		opts = append(opts, kfake.BrokerConfigs(map[string]string{"log.retention.bytes": strconv.FormatInt(o.Retention, 10)}))
	}
	if o.Blackhole {
		opts = append(opts, kfake.BlackholeProduce())
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		return nil, fmt.Errorf("embedded cluster: %w", err)
	}
	e := &Embedded{Cluster: c, brokers: o.Brokers, stop: make(chan struct{})}
	if o.Retention > 0 && !o.Blackhole {
		e.wg.Add(1)
		go e.retain()
	}
	return e, nil
}

// retain applies retention every second: kfake only does it on demand.
func (e *Embedded) retain() {
	defer e.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			return
		case <-t.C:
			e.Cluster.ApplyRetention()
		}
	}
}

// Addrs are the brokers' host:port addresses.
func (e *Embedded) Addrs() []string { return e.Cluster.ListenAddrs() }

// URL is the kafka:// target of the cluster.
func (e *Embedded) URL() string { return "kafka://" + strings.Join(e.Addrs(), ",") }

// Note is the summary remark for runs on this cluster.
func (e *Embedded) Note() string { return fmt.Sprintf(EmbeddedNote, e.brokers) }

// Close stops the cluster; it is safe to call more than once.
func (e *Embedded) Close() error {
	e.once.Do(func() {
		close(e.stop)
		e.wg.Wait()
		e.Cluster.Close()
	})
	return nil
}
