package nats

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/natscluster"
)

func storage(s string) jetstream.StorageType {
	if s == "memory" {
		return jetstream.MemoryStorage
	}
	return jetstream.FileStorage
}

// errLayout marks an existing stream whose replicas or storage differ
// from the options: a usage error, nothing is changed.
var errLayout = errors.New("stream layout differs")

// ensureStreams creates the missing streams and checks existing ones; it
// returns the names it created.
//
// On the embedded cluster (nodes named), a one-replica stream i is placed
// on node i mod N by its server tag, so that leaders spread.
func ensureStreams(ctx context.Context, js jetstream.JetStream, names []string, o *Options, nodes []string) ([]string, error) {
	var created []string
	for i, name := range names {
		cfg := jetstream.StreamConfig{
			Name: name, Subjects: []string{subjectOf(name)}, Replicas: o.Replicas, Storage: storage(o.Storage),
			Retention: jetstream.LimitsPolicy, Discard: jetstream.DiscardOld, MaxBytes: o.MaxBytes,
		}
		if o.Replicas == 1 && len(nodes) > 1 {
			cfg.Placement = &jetstream.Placement{Tags: []string{natscluster.NodeTag(nodes[i%len(nodes)])}}
		}
		s, err := js.Stream(ctx, name)
		if err == nil {
			info := s.CachedInfo()
			if info.Config.Replicas != o.Replicas || info.Config.Storage != cfg.Storage {
				return created, fmt.Errorf("%w: stream %s exists with %d replica(s), %s storage; this run asks for %d, %s (choose another --stream-prefix)",
					errLayout, name, info.Config.Replicas, info.Config.Storage, o.Replicas, cfg.Storage)
			}
			continue
		}
		if !errors.Is(err, jetstream.ErrStreamNotFound) {
			return created, fmt.Errorf("stream %s: %s", name, natsdrv.ErrorMessage(err))
		}
		if err := createStream(ctx, js, cfg); err != nil {
			return created, fmt.Errorf("create stream %s: %s", name, natsdrv.ErrorMessage(err))
		}
		created = append(created, name)
	}
	return created, nil
}

// waitCurrent waits until every stream has a leader and all its replicas
// are current, and returns the last stream infos.
func waitCurrent(ctx context.Context, js jetstream.JetStream, names []string) ([]*jetstream.StreamInfo, error) {
	infos := make([]*jetstream.StreamInfo, len(names))
	for i, name := range names {
		for {
			s, err := js.Stream(ctx, name)
			if err == nil {
				info := s.CachedInfo()
				infos[i] = info
				if current(info) {
					break
				}
			}
			select {
			case <-ctx.Done():
				why := "no answer"
				if err != nil {
					why = natsdrv.ErrorMessage(err)
				} else if infos[i] != nil {
					why = describeCluster(infos[i])
				}
				return infos, fmt.Errorf("stream %s: replicas not current: %s", name, why)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	return infos, nil
}

func current(info *jetstream.StreamInfo) bool {
	if info.Config.Replicas <= 1 {
		return true
	}
	c := info.Cluster
	if c == nil || c.Leader == "" || len(c.Replicas) != info.Config.Replicas-1 {
		return false
	}
	for _, r := range c.Replicas {
		if !r.Current || r.Offline {
			return false
		}
	}
	return true
}

func describeCluster(info *jetstream.StreamInfo) string {
	c := info.Cluster
	if c == nil {
		return "single server"
	}
	parts := []string{"leader " + orNone(c.Leader)}
	for _, r := range c.Replicas {
		st := "current"
		switch {
		case r.Offline:
			st = "offline"
		case !r.Current:
			st = "catching up"
		}
		parts = append(parts, r.Name+" "+st)
	}
	return strings.Join(parts, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// settingsNote states the settings in effect, read back from the
// cluster: stream replicas and storage from the stream infos, the fsync
// policy from the monitoring endpoint (jsz, nil when unknown), the
// publish mode (a client setting).
func settingsNote(o *Options, infos []*jetstream.StreamInfo, jsz *natsdrv.JSZ, nodes string, names []string) string {
	reps := map[int]int{}
	var stores []string
	seen := map[string]bool{}
	for _, in := range infos {
		if in == nil {
			continue
		}
		reps[in.Config.Replicas]++
		if s := in.Config.Storage.String(); !seen[s] {
			seen[s] = true
			stores = append(stores, s)
		}
	}
	var rs []string
	for r, n := range reps {
		rs = append(rs, sprintf("R%d ×%d", r, n))
	}
	first := "-"
	if len(infos) > 0 && infos[0] != nil {
		first = infos[0].Config.Name + ": " + describeCluster(infos[0])
	}
	fsync := "fsync policy unknown (give the target monitor=http://host:8222 to read it back)"
	if jsz != nil {
		fsync = jsz.FsyncSetting()
	}
	mode := publishModes(o, names)
	return sprintf("nats settings in effect (read back from the cluster): %s; %d stream(s) %s, %s storage (%s); %s; %s; each message counts on its PubAck, which JetStream sends once a majority of the stream's replicas stored it; profile %s, %d-byte messages",
		nodes, len(infos), strings.Join(rs, ", "), strings.Join(stores, "/"), first, fsync, mode, o.Profile, o.MessageSize)
}

// createStream creates a stream, retrying while the cluster says it is
// still forming (peers not yet online, no meta leader) until ctx ends.
func createStream(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig) error {
	for {
		_, err := js.CreateStream(ctx, cfg)
		if err == nil || !transient(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// transient tells errors of a cluster that is still electing or placing.
func transient(err error) bool {
	m := natsdrv.ErrorMessage(err)
	for _, s := range []string{"peer", "temporarily unavailable", "no responders", "timeout", "insufficient resources"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// publishModes says how each selected scenario publishes: only
// nats.Publish follows --nats-publish; nats.EndToEnd and nats.MaxRate
// publish one message at a time and wait for its PubAck.
func publishModes(o *Options, names []string) string {
	var parts []string
	var syncOnly []string
	for _, n := range names {
		switch n {
		case ScenarioPublish:
			if o.PublishMode == "sync" {
				parts = append(parts, n+": sync publish, one message in flight per VU")
			} else {
				parts = append(parts, sprintf("%s: async publish, window of %d messages per VU", n, o.AsyncWindow))
			}
		case ScenarioEndToEnd, ScenarioMaxRate:
			syncOnly = append(syncOnly, n)
		}
	}
	if len(syncOnly) > 0 {
		parts = append(parts, strings.Join(syncOnly, " and ")+": sync publish, one message in flight per VU (whatever --nats-publish says)")
	}
	if len(parts) == 0 {
		return "no publishing scenario"
	}
	return strings.Join(parts, "; ")
}

// waitReachable waits until every stream answers a publish through every
// server in addrs (host:port of the embedded nodes; none: only through
// js). A stream just created, or whose leader just moved, can be current
// in the meta group while a server has not yet learned its subject's
// interest: a publish there gets "no responders", which measuring must
// not count. The probe expects a last sequence no stream has, so the
// stream refuses it (an API error, the answer sought) and stores nothing.
func waitReachable(ctx context.Context, js jetstream.JetStream, addrs []string, streams []string) error {
	probe := func(js jetstream.JetStream, via string) error {
		for _, name := range streams {
			for {
				_, err := js.Publish(ctx, subjectOf(name), nil, jetstream.WithExpectLastSequence(math.MaxUint64))
				var apiErr *jetstream.APIError
				if errors.As(err, &apiErr) {
					break // the stream answered
				}
				if err == nil {
					return fmt.Errorf("stream %s stored the reachability probe", name)
				}
				select {
				case <-ctx.Done():
					return fmt.Errorf("stream %s not reachable through %s: %s", name, via, natsdrv.ErrorMessage(err))
				case <-time.After(50 * time.Millisecond):
				}
			}
		}
		return nil
	}
	if len(addrs) == 0 {
		return probe(js, "the admin connection")
	}
	for _, a := range addrs {
		nc, err := nats.Connect("nats://"+a, nats.Name("stampede-probe"))
		if err != nil {
			return fmt.Errorf("probe %s: %w", a, err)
		}
		pjs, err := jetstream.New(nc)
		if err == nil {
			err = probe(pjs, a)
		}
		nc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// startState is the note on what the load streams (infos, as read at the
// start) held: with purge it empties them first (nats bench --purge) and
// says what was deleted; without, it says what earlier runs left, since
// writing after them is not writing into an empty stream. "" when they
// held nothing.
func startState(ctx context.Context, js jetstream.JetStream, infos []*jetstream.StreamInfo, purge bool) (string, error) {
	var msgs, bytes uint64
	var names []string
	for _, info := range infos {
		if info == nil || info.State.Msgs == 0 {
			continue
		}
		msgs += info.State.Msgs
		bytes += info.State.Bytes
		names = append(names, info.Config.Name)
	}
	if msgs == 0 {
		return "", nil
	}
	held := fmt.Sprintf("%d message(s), %s, in %s", msgs, monitor.FmtBytes(float64(bytes)), span(names))
	if !purge {
		return "the streams held " + held + " when the run started (earlier runs' data, still in the broker's store); --nats-purge empties them first, as nats bench --purge does", nil
	}
	for _, name := range names {
		s, err := js.Stream(ctx, name)
		if err == nil {
			err = s.Purge(ctx)
		}
		if err != nil {
			return "", fmt.Errorf("--nats-purge: stream %s: %s", name, natsdrv.ErrorMessage(err))
		}
	}
	return "--nats-purge: emptied the streams before the run, deleting " + held, nil
}
