// Package kafka is the "kafka" workload family: kafka.Produce,
// kafka.Consume, kafka.EndToEnd and kafka.MaxRate against any
// Kafka-protocol cluster, or an embedded in-memory kfake cluster when no
// --target is given. See docs/kafka.md.
package kafka

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/vu"
)

// Family is the "kafka" family. Build one per run with New.
type Family struct {
	opts Options
	// explicit tells whether the user gave an option's flag (set by
	// BindFlags); nil for a family built from Options alone.
	explicit func(option string) bool
}

var (
	_ workload.Family     = (*Family)(nil)
	_ workload.FlagBinder = (*Family)(nil)
)

// New returns the kafka family with options opts (see DefaultOptions and
// Options.Profile).
func New(opts Options) *Family { return &Family{opts: opts} }

// Name implements workload.Family.
func (*Family) Name() string { return "kafka" }

// Scenarios implements workload.Family.
func (*Family) Scenarios() []workload.Info {
	return []workload.Info{
		{Name: ScenarioProduce, Description: "one message per iteration, counted when the broker acknowledges it (publish latency; publish delay under --rate)"},
		{Name: ScenarioConsume, Description: "each VU a consumer polling its share of the partitions (consumed msgs/s, lag, age of messages)"},
		{Name: ScenarioEndToEnd, Description: "produce one message and wait until a consumer of the run receives it (publish and end-to-end latency, backlog, lost)"},
		{Name: ScenarioMaxRate, Description: "step the produce rate up until backlog or errors grow; report the highest sustained msgs/s"},
	}
}

// effective returns the options with the profile applied to every
// setting the user did not give explicitly.
func (f *Family) effective() (Options, error) {
	return withProfile(f.opts, f.explicit)
}

// Open implements workload.Family: it validates the options, starts the
// embedded cluster when there is no --target, checks that a broker
// answers, and creates (or checks) the topics.
func (f *Family) Open(ctx context.Context, env *workload.Env, names []string) (_ *workload.Opened, err error) {
	o, err := f.effective()
	if err != nil {
		return nil, err
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	logf := func(format string, args ...any) { env.Logf(format, args...) }

	var closers []func() error
	defer func() {
		if err != nil {
			for i := len(closers) - 1; i >= 0; i-- {
				_ = closers[i]()
			}
		}
	}()
	var cfg kafkadrv.Config
	var notes []string
	var cluster *kfake.Cluster
	var emb *Embedded
	target := ""
	if env.Target == "" {
		emb, err = StartEmbedded(EmbeddedOptions{Brokers: o.Brokers, Retention: o.EmbeddedRetention, Blackhole: o.EmbeddedBlackhole, Fsync: wantsFsync(&o)})
		if err != nil {
			return nil, err
		}
		closers = append(closers, emb.Close)
		cluster = emb.Cluster
		cfg, err = kafkadrv.Parse(emb.URL(), nil)
		if err != nil {
			return nil, err
		}
		notes = append(notes, emb.standIn(true).note(&o))
		if o.EmbeddedBlackhole {
			notes = append(notes, "embedded cluster discards produced records (--embedded-blackhole): nothing can be consumed")
		}
		target = cfg.String() + " (embedded kfake)"
		logf("kafka: started the embedded in-memory cluster, %d brokers on %s", o.Brokers, strings.Join(emb.Addrs(), ","))
		if emb.Fsync() {
			logf("kafka: flush.messages=1: the embedded cluster writes every batch to a temporary directory with fsync")
		}
	} else {
		if o.ChurnBrokers {
			return nil, usage.Errorf("--churn-brokers needs the embedded cluster (no --target); on a real cluster add and remove a broker yourself during the churn window")
		}
		u, perr := url.Parse(env.Target)
		if perr != nil {
			return nil, usage.Errorf("bad kafka target: want kafka://host:port,host:port")
		}
		getenv := env.Getenv
		cfg, err = kafkadrv.ParseURL(u, getenv)
		if err != nil {
			return nil, usage.Errorf("%v", err)
		}
		target = cfg.String()
	}
	admin, err := kafkadrv.Connect(ctx, cfg)
	if err != nil {
		return nil, usage.Errorf("%v", err)
	}
	closers = append(closers, func() error { admin.Close(); return nil })
	adm := kadm.NewClient(admin)
	version, _ := kafkadrv.Version(ctx, admin)
	standInTarget := cluster != nil
	if cluster == nil {
		if si, ok := detectStandIn(ctx, adm); ok {
			// stampede kafka serve (or another kfake): same caveats.
			standInTarget = true
			notes = append(notes, si.note(&o))
			target += " (kfake, by its cluster id)"
			logf("kafka: the target is a kfake test cluster (cluster id): the summary says what it does not model")
		}
	}

	autoParts := false
	if !given(&o, f.explicit, flagPartitions) {
		// Partitions follow the broker count, as nats streams follow the
		// node count: every write goes to a partition leader, so fewer
		// partitions than brokers would leave brokers idle and a node
		// sweep flat by construction.
		if n := brokerCount(ctx, adm); int32(n) > o.Partitions {
			o.Partitions, autoParts = int32(n), true
		}
	}
	cfgs, _ := topicConfigs(&o)
	r := &run{
		opts:    o,
		topics:  topicNames(&o),
		layout:  layout{Partitions: o.Partitions, RF: o.ReplicationFactor, Configs: cfgs, AnyPartitions: autoParts},
		admin:   adm,
		cluster: cluster,
		maxVUs:  env.MaxVUs,
		logf:    logf,
		client: func(extra ...kgo.Opt) (*kgo.Client, error) {
			return kgo.NewClient(append(cfg.ClientOpts(), extra...)...)
		},
	}
	created, err := ensureTopics(ctx, adm, r.topics, r.layout)
	if err != nil {
		var te *topicError
		if errors.Is(err, errLayout) || errors.As(err, &te) && te.Usage {
			return nil, usage.Errorf("kafka %s: %v", target, err)
		}
		return nil, fmt.Errorf("kafka %s: %w", target, err)
	}
	if emb != nil {
		if err := emb.SpreadLeaders(r.topics, o.Partitions); err != nil {
			return nil, err
		}
		notes = append(notes, spreadNote(o.Brokers))
	}
	if len(created) > 0 {
		logf("kafka: created %d topic(s) (%s), %d partition(s), replication factor %d", len(created), span(created), o.Partitions, o.ReplicationFactor)
	}
	if o.DeleteTopics && len(created) > 0 {
		closers = append(closers[:len(closers)-1], func() error {
			dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			derr := deleteTopics(dctx, adm, created)
			admin.Close()
			return derr
		})
	}
	r.ids = registerMetrics(env.Metrics, r.topics, needsOf(names, &o))
	needPayload := false
	opened := &workload.Opened{Scenarios: map[string]vu.Scenario{}, Target: target, TargetVersion: version, InProcess: cluster != nil, StandIn: standInTarget}
	for _, n := range names {
		switch n {
		case ScenarioProduce:
			opened.Scenarios[n] = newProduce(r)
			needPayload = true
		case ScenarioConsume:
			opened.Scenarios[n] = newConsume(r)
			if c := len(r.assignments(func(string, int32) kgo.Offset { return kgo.NewOffset() })); env.MaxVUs > 0 && env.MaxVUs != c {
				logf("kafka: kafka.Consume has %d consumer(s) (--topics × --consumers, at most one per partition) and %d VUs: VUs share consumers round-robin or idle", c, env.MaxVUs)
			}
		case ScenarioEndToEnd:
			opened.Scenarios[n] = newEndToEnd(r)
			needPayload = true
		case ScenarioMaxRate:
			opened.Scenarios[n] = newMaxRate(r)
			needPayload = true
		default:
			return nil, usage.Errorf("kafka family has no scenario %q", n)
		}
	}
	rb, err := readBackFresh(ctx, cfg, r.topics)
	if err != nil {
		return nil, fmt.Errorf("kafka %s: %w", target, err)
	}
	r.rb = rb
	if needPayload {
		r.pay = newPayloads(o.Payload, o.MessageSize, poolBytes(compressed(o.Compression, rb)), env.Seed)
	}
	opened.Notes = append(notes, describe(&o), rb.note(cfgs), rb.layout(env.MaxVUs, autoParts, emb != nil).Note())
	opened.Close = func() error {
		var errs []error
		for i := len(closers) - 1; i >= 0; i-- {
			errs = append(errs, closers[i]())
		}
		return errors.Join(errs...)
	}
	return opened, nil
}

// span names a list of topics compactly: a, or a … z (n).
func span(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return names[0] + " … " + names[len(names)-1]
}

// brokerCount is how many brokers the cluster's metadata lists (0 when it
// cannot be read).
func brokerCount(ctx context.Context, adm *kadm.Client) int {
	mctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	bs, err := adm.ListBrokers(mctx)
	if err != nil {
		return 0
	}
	return len(bs)
}

// readBackFresh reads the load topics back with a client of its own: the
// admin client caches the metadata of its earlier requests (franz-go's
// metadata min age), which named topics this run just created unknown.
func readBackFresh(ctx context.Context, cfg kafkadrv.Config, topics []string) (*topicsReadBack, error) {
	cl, err := kgo.NewClient(cfg.ClientOpts()...)
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	return readBack(rctx, kadm.NewClient(cl), topics), nil
}
