package kafka

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

// Embedded is an in-process Kafka-protocol cluster (franz-go's kfake)
// listening on loopback ports. It keeps records in memory.
type Embedded struct {
	// Cluster is the kfake cluster, for tests that inject faults.
	Cluster *kfake.Cluster
	brokers int
	fsync   bool
	dataDir string // temporary, removed by Close
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
	// Fsync writes every produced batch to a temporary directory with
	// fsync before acknowledging it (kfake's DataDir and SyncWrites), so
	// that flush.messages=1 costs what a flush costs. The directory is
	// removed by Close.
	Fsync bool
	// AutoCreate lets clients create topics by asking for them (metadata
	// requests with auto-creation allowed, as kcat and most producers
	// send), with AutoPartitions partitions (default 1) and kfake's
	// replication factor (the broker count, at most 3).
	AutoCreate     bool
	AutoPartitions int32
}

// StartEmbedded starts an embedded cluster. Close stops it.
func StartEmbedded(o EmbeddedOptions) (*Embedded, error) {
	if o.Brokers < 1 {
		o.Brokers = 3
	}
	id := EmbeddedClusterID
	if o.Fsync {
		id = EmbeddedClusterIDFsync
	}
	opts := []kfake.Opt{kfake.NumBrokers(o.Brokers), kfake.ClusterID(id)}
	if o.AutoCreate {
		opts = append(opts, kfake.AllowAutoTopicCreation(), kfake.DefaultNumPartitions(int(max(o.AutoPartitions, 1))))
	}
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
	var dir string
	if o.Fsync && !o.Blackhole {
		var err error
		if dir, err = os.MkdirTemp("", "stampede-kfake-*"); err != nil {
			return nil, fmt.Errorf("embedded cluster: %w", err)
		}
		opts = append(opts, kfake.DataDir(dir), kfake.SyncWrites())
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		if dir != "" {
			err = errors.Join(err, os.RemoveAll(dir))
		}
		return nil, fmt.Errorf("embedded cluster: %w", err)
	}
	e := &Embedded{Cluster: c, brokers: o.Brokers, fsync: dir != "", dataDir: dir, stop: make(chan struct{})}
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

// Note says what the cluster does not model, for clients of another
// process (stampede kafka serve).
func (e *Embedded) Note() string { return e.standIn(false).note(nil) }

// Fsync tells whether the cluster fsyncs every produced batch.
func (e *Embedded) Fsync() bool { return e.fsync }

func (e *Embedded) standIn(inProcess bool) standIn {
	return standIn{brokers: e.brokers, fsync: e.fsync, inProcess: inProcess}
}

// Close stops the cluster; it is safe to call more than once.
func (e *Embedded) Close() (err error) {
	e.once.Do(func() {
		close(e.stop)
		e.wg.Wait()
		e.Cluster.Close()
		if e.dataDir != "" {
			err = os.RemoveAll(e.dataDir)
		}
	})
	return err
}

// SpreadLeaders moves the leaders of the topics' partitions (each topic
// has partitions of them) so that the k-th partition, topics and
// partitions in order, is led by broker k mod N: kfake picks each leader
// at random when it creates a partition, which can leave brokers leading
// nothing. Call it before clients use the topics (leaders moved later are
// found by the clients' metadata refresh, as after an election).
func (e *Embedded) SpreadLeaders(topics []string, partitions int32) error {
	k := 0
	for _, t := range topics {
		for p := range partitions {
			if err := e.Cluster.MoveTopicPartition(t, p, int32(k%e.brokers)); err != nil {
				return fmt.Errorf("embedded cluster: lead %s/%d on broker %d: %w", t, p, k%e.brokers, err)
			}
			k++
		}
	}
	return nil
}
