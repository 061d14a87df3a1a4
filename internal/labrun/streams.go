package labrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stampede-bench/stampede/internal/lab"
	"github.com/stampede-bench/stampede/internal/workload"
)

// control is the lab's own connection to the cluster, from the hub
// namespace.
type control struct {
	nc *nats.Conn
	js jetstream.JetStream
	// solo is the only node's name when the cluster is one standalone
	// server (its streams report no cluster leader).
	solo string
	// names are the streams the lab created.
	names []string
}

func dialControl(ctx context.Context, f *lab.Fabric, hosts []*lab.Host) (*control, error) {
	var urls []string
	for _, h := range hosts {
		urls = append(urls, "nats://"+h.Addr.String()+":"+strconv.Itoa(clientPort))
	}
	nc, err := nats.Connect(strings.Join(urls, ","), nats.SetCustomDialer(lab.Dialer{F: f, Ctx: ctx}),
		nats.Name("stampede-lab-control"), nats.Timeout(5*time.Second), nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("lab control connection: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	ctl := &control{nc: nc, js: js}
	if len(hosts) == 1 {
		ctl.solo = hosts[0].Name
	}
	return ctl, nil
}

func (c *control) close() { c.nc.Close() }

// pairStreams are the stream names of pair p, named as the nats family
// names --stream-prefix pK --streams M (zero-padded from 10 streams on).
func pairStreams(c *Config, p Pair) []string {
	return workload.NumberedNames("p"+strconv.Itoa(p.Index), c.StreamsPerPair)
}

func subjectOf(stream string) string { return strings.Replace(stream, "-", ".", 1) }

// maxStreamBytes bounds each stream (oldest discarded), so a long lab
// keeps its disk use bounded.
const maxStreamBytes = 16 << 20

// createStreams creates every pair's streams led by the pair's node: an
// R1 stream is placed on it by its tag; an R3 stream on the node's
// replica group (groupsOf), and its leadership then moved to the node. It retries while the cluster is still electing (up to 60 s).
func (ctl *control) createStreams(ctx context.Context, c *Config, hosts []*lab.Host) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for _, p := range c.Pairs() {
		want := hosts[p.Node].Name
		for _, name := range pairStreams(c, p) {
			ctl.names = append(ctl.names, name)
			cfg := jetstream.StreamConfig{Name: name, Subjects: []string{subjectOf(name)}, Replicas: c.Replicas(),
				Storage: jetstream.FileStorage, Retention: jetstream.LimitsPolicy, Discard: jetstream.DiscardOld, MaxBytes: maxStreamBytes}
			switch {
			case c.Replicas() == 1 && len(hosts) > 1:
				cfg.Placement = &jetstream.Placement{Tags: []string{"node:" + want}}
			case c.Replicas() > 1:
				cfg.Placement = &jetstream.Placement{Tags: []string{groupTag(p.Node)}}
			}
			// A request sent before the meta leader is elected gets no
			// answer: short attempts first, longer ones on a loaded host.
			wait := 500 * time.Millisecond
			if err := retry(ctx, func() error {
				cctx, ccancel := context.WithTimeout(ctx, wait)
				defer ccancel()
				wait = min(2*wait, 8*time.Second)
				_, err := ctl.js.CreateStream(cctx, cfg)
				return err
			}); err != nil {
				return fmt.Errorf("create stream %s on %s: %w", name, want, err)
			}
			if c.Replicas() > 1 {
				ctl.lead(ctx, name, want)
			}
		}
	}
	return ctl.waitLeaders(ctx, c)
}

// retry calls f until it succeeds or ctx ends.
func retry(ctx context.Context, f func() error) error {
	var last error
	for {
		err := f()
		if err == nil {
			return nil
		}
		if ctx.Err() == nil || last == nil {
			last = err
		}
		select {
		case <-ctx.Done():
			return last
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// lead asks stream name's leader to step down in favour of node want,
// and waits (up to 15 s) until want leads it. It gives up quietly: the
// leaders per node are read back and reported either way.
func (ctl *control) lead(ctx context.Context, name, want string) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	body, _ := json.Marshal(map[string]any{"placement": map[string]string{"preferred": want}})
	for ctx.Err() == nil {
		s, err := ctl.js.Stream(ctx, name)
		if err == nil {
			info := s.CachedInfo()
			if info.Cluster != nil && info.Cluster.Leader == want {
				return
			}
			if info.Cluster != nil && !hasPeer(info.Cluster, want) {
				return
			}
			if info.Cluster != nil && info.Cluster.Leader != "" {
				_, _ = ctl.nc.RequestWithContext(ctx, "$JS.API.STREAM.LEADER.STEPDOWN."+name, body)
			}
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func hasPeer(ci *jetstream.ClusterInfo, name string) bool {
	if ci.Leader == name {
		return true
	}
	for _, r := range ci.Replicas {
		if r.Name == name {
			return true
		}
	}
	return false
}

// waitLeaders waits until every stream has a leader and, replicated,
// all its replicas current.
func (ctl *control) waitLeaders(ctx context.Context, c *Config) error {
	return retry(ctx, func() error {
		st, err := ctl.sample(ctx)
		if err != nil {
			return err
		}
		for _, p := range c.Pairs() {
			for _, name := range pairStreams(c, p) {
				s, ok := st.streams[name]
				if !ok || s.leader == "" || !s.current {
					return fmt.Errorf("stream %s has no leader or a replica is behind", name)
				}
			}
		}
		return nil
	})
}

// streamState is one stream at one moment.
type streamState struct {
	leader  string
	lastSeq uint64
	// lastTime is when the server stored the last message: sequences
	// over stored times give a rate free of the request's latency.
	lastTime time.Time
	current  bool
	// replicas are the followers' names.
	replicas []string
}

// streamSample is every stream at one moment.
type streamSample struct {
	at      time.Time
	streams map[string]streamState
}

// sample lists every stream's state, trying up to three times: the
// JetStream API shares the shaped, saturated links with the load.
func (ctl *control) sample(ctx context.Context) (streamSample, error) {
	var s streamSample
	var err error
	for range 3 {
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		s, err = ctl.sampleOnce(actx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return s, err
		}
	}
	return s, err
}

// sampleOnce lists every stream's state (a few paged API requests).
func (ctl *control) sampleOnce(ctx context.Context) (streamSample, error) {
	t0 := time.Now()
	out := streamSample{streams: map[string]streamState{}}
	l := ctl.js.ListStreams(ctx)
	for info := range l.Info() {
		s := streamState{lastSeq: info.State.LastSeq, lastTime: info.State.LastTime, current: true}
		if ci := info.Cluster; ci != nil {
			s.leader = ci.Leader
			for _, r := range ci.Replicas {
				s.replicas = append(s.replicas, r.Name)
				s.current = s.current && r.Current && !r.Offline
			}
		}
		if s.leader == "" {
			s.leader = ctl.solo
		}
		out.streams[info.Config.Name] = s
	}
	if err := l.Err(); err != nil && !errors.Is(err, jetstream.ErrEndOfData) {
		return out, fmt.Errorf("list streams: %w", err)
	}
	// A clustered list leaves out streams whose leader did not answer in
	// time: ask those one by one.
	for _, name := range ctl.names {
		if _, ok := out.streams[name]; ok {
			continue
		}
		st, err := ctl.js.Stream(ctx, name)
		if err != nil {
			return out, fmt.Errorf("stream %s: %w", name, err)
		}
		info := st.CachedInfo()
		s := streamState{lastSeq: info.State.LastSeq, lastTime: info.State.LastTime, current: true, leader: ctl.solo}
		if ci := info.Cluster; ci != nil && ci.Leader != "" {
			s.leader = ci.Leader
			for _, r := range ci.Replicas {
				s.replicas = append(s.replicas, r.Name)
				s.current = s.current && r.Current && !r.Offline
			}
		}
		out.streams[name] = s
	}
	out.at = t0.Add(time.Since(t0) / 2)
	return out, nil
}
