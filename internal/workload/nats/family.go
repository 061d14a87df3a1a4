// Package nats is the "nats" workload family: nats.Publish,
// nats.Consume, nats.EndToEnd and nats.MaxRate against a NATS JetStream
// cluster, or against a real embedded N-node nats-server cluster (package
// natscluster) when no --target is given. See docs/nats.md.
package nats

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/natscluster"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
	"github.com/stampede-bench/stampede/vu"
)

// EmbeddedNote is said in every summary of a run on the embedded cluster.
const EmbeddedNote = "embedded real NATS JetStream cluster: %d nats-server %s node(s) as child processes on this machine, sharing its %d cores with the load generator; replication, quorum acks and fsync are real, per-node capacity is not a separate machine's"

// Family is the "nats" family; build one per run with New.
type Family struct {
	opts Options
	// explicit tells whether the user gave an option's flag (set by
	// BindFlags); nil for a family built from Options alone.
	explicit func(option string) bool
	// Launch overrides how embedded nodes are started (tests).
	Launch func(config string) *exec.Cmd
}

var (
	_ workload.Family     = (*Family)(nil)
	_ workload.FlagBinder = (*Family)(nil)
)

// New returns the nats family with options opts (see DefaultOptions and
// Options.Profile).
func New(opts Options) *Family { return &Family{opts: opts} }

// Name implements workload.Family.
func (*Family) Name() string { return "nats" }

// Scenarios implements workload.Family.
func (*Family) Scenarios() []workload.Info {
	return []workload.Info{
		{Name: ScenarioPublish, Description: "JetStream publish, counted on the PubAck (async window or sync; publish latency)"},
		{Name: ScenarioConsume, Description: "durable pull consumers with explicit acks (consumed msgs/s, lag, age of messages)"},
		{Name: ScenarioEndToEnd, Description: "publish one message and wait until a consumer of the run receives it (publish and end-to-end latency, lost)"},
		{Name: ScenarioMaxRate, Description: "step the publish rate up until PubAcks fall behind or errors grow; report the highest sustained msgs/s"},
	}
}

// effective returns the options with the profile applied to every
// setting the user did not give.
func (f *Family) effective() (Options, error) {
	return withProfile(f.opts, f.explicit)
}

// Open implements workload.Family: it starts the embedded cluster when
// there is no --target, creates (or checks) the streams, waits until
// their replicas are current and reads the settings back.
func (f *Family) Open(ctx context.Context, env *workload.Env, names []string) (_ *workload.Opened, err error) {
	o, err := f.effective()
	if err != nil {
		return nil, err
	}
	r0window := false // the async window was divided among the VUs
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if f.explicit != nil && !f.explicit("nats-async-window") && o.AsyncWindow == DefaultOptions().AsyncWindow && env.MaxVUs > 1 {
		// The default depth is one nats bench client's --batch 500 in all,
		// not per VU: 50 VUs × 500 queued 25,000 messages in the client,
		// and the latency measured that queue, not the broker.
		o.AsyncWindow = max(1, DefaultOptions().AsyncWindow/env.MaxVUs)
		r0window = true
	}
	streamsGiven := o.Streams != DefaultOptions().Streams || f.explicit != nil && f.explicit("streams")
	if env.Target == "" && !streamsGiven {
		o.Streams = o.Nodes // one stream per node: leaders spread
	}
	for _, n := range names {
		if n == ScenarioEndToEnd && o.MessageSize < stampLen {
			return nil, usage.Errorf("nats.EndToEnd needs --nats-message-size ≥ %d (it carries a send stamp)", stampLen)
		}
		if n == ScenarioConsume && o.Purge {
			return nil, usage.Errorf("--nats-purge would delete the messages nats.Consume reads: leave it out, or purge with nats stream purge before a run that publishes first")
		}
	}
	kill, _ := killSpec(&o) // validated
	switch {
	case o.KillHook != "" && !kill.Enabled():
		return nil, usage.Errorf("--kill-hook needs --kill-node AT[,restart AFTER]")
	case kill.Enabled() && env.Target != "" && o.KillHook == "":
		return nil, usage.Errorf("--kill-node needs the embedded cluster (no --target), where it SIGKILLs one of the nodes stampede runs; on a --target cluster give --kill-hook 'CMD {action} {node}' to kill and restart a node by its server name")
	case kill.Enabled() && env.Target == "":
		if err := kill.Check(o.Nodes); err != nil {
			return nil, usage.Errorf("%v", err)
		}
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
	var cfg natsdrv.Config
	var cluster *natscluster.Cluster
	var notes []string
	target, nodes := "", ""
	if env.Target == "" {
		if o.Nodes < o.Replicas {
			return nil, usage.Errorf("--nats-replicas %d needs at least %d nodes (--nats-nodes %d)", o.Replicas, o.Replicas, o.Nodes)
		}
		base := env.DataDir
		if base == "" {
			base = os.TempDir()
		}
		_, absent := os.Stat(base)
		if err := os.MkdirAll(base, 0o755); err != nil {
			return nil, fmt.Errorf("embedded nats cluster: %w", err)
		}
		dir, err := os.MkdirTemp(base, "nats-embedded-")
		if err != nil {
			return nil, fmt.Errorf("embedded nats cluster: %w", err)
		}
		closers = append(closers, func() error {
			err := os.RemoveAll(dir)
			if absent != nil {
				os.Remove(base) // made for the store: no empty directory stays (only removed when empty)
			}
			return err
		})
		t0 := time.Now()
		cluster, err = natscluster.Start(ctx, natscluster.Options{Nodes: o.Nodes, Dir: dir, SyncAlways: o.Fsync == "always", Launch: f.Launch})
		if err != nil {
			return nil, err
		}
		closers = append(closers, cluster.Close)
		cfg, _ = natsdrv.Parse(cluster.URL(), nil)
		cfg.Monitor = cluster.MonitorURL(0)
		target = cluster.URL() + " (embedded)"
		logf("nats: started the embedded cluster, %d node(s) on %s, ready in %s (meta leader %s)", o.Nodes, strings.Join(cluster.Addrs(), ","), time.Since(t0).Round(time.Millisecond), orNone(cluster.MetaLeader(ctx)))
	} else {
		if o.ChurnNodes {
			return nil, usage.Errorf("--churn-nodes needs the embedded cluster (no --target); on a real cluster stop and start a node yourself during the churn window")
		}
		cfg, err = natsdrv.Parse(env.Target, env.Getenv)
		if err != nil {
			return nil, usage.Errorf("%v", err)
		}
		target = cfg.String()
		if given(&o, f.explicit, flagFsync) {
			notes = append(notes, "--nats-fsync configures only the embedded cluster: on --target the fsync policy is the server's sync_interval, read back below when monitor= is given")
		}
	}
	connect := func(name string) (*nats.Conn, error) {
		return natsdrv.Connect(cfg, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond), nats.ReconnectJitter(50*time.Millisecond, 0))
	}
	admin, err := connect("stampede-admin")
	if err != nil {
		return nil, usage.Errorf("nats %s: %v", target, err)
	}
	closers = append(closers, func() error { admin.Close(); return nil })
	js, err := jetstream.New(admin)
	if err != nil {
		return nil, err
	}
	version := admin.ConnectedServerVersion()
	r := &run{windowAuto: r0window, opts: o, streams: streamNames(&o), connect: connect, cluster: cluster, admin: js, kill: kill, maxVUs: env.MaxVUs, seed: env.Seed, logf: logf}
	sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var nodeNames []string
	if cluster != nil {
		for i := range cluster.Size() {
			nodeNames = append(nodeNames, cluster.NodeName(i))
		}
	}
	created, err := ensureStreams(sctx, js, r.streams, &o, nodeNames)
	if err != nil {
		if errors.Is(err, errLayout) {
			return nil, usage.Errorf("nats %s: %v", target, err)
		}
		return nil, fmt.Errorf("nats %s: %w", target, err)
	}
	if len(created) > 0 {
		logf("nats: created %d stream(s) (%s), R%d %s storage", len(created), span(created), o.Replicas, o.Storage)
	}
	if o.DeleteStreams && len(created) > 0 {
		closers = append(closers, func() error {
			dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var errs []error
			for _, s := range created {
				errs = append(errs, js.DeleteStream(dctx, s))
			}
			return errors.Join(errs...)
		})
	}
	infos, err := waitCurrent(sctx, js, r.streams)
	if err != nil {
		return nil, fmt.Errorf("nats %s: %w", target, err)
	}
	if cluster != nil && spreadLeaders(sctx, admin, infos, nodeNames) > 0 {
		if infos, err = waitCurrent(sctx, js, r.streams); err != nil {
			return nil, fmt.Errorf("nats %s: %w", target, err)
		}
	}
	held, err := startState(sctx, js, infos, o.Purge)
	if err != nil {
		return nil, fmt.Errorf("nats %s: %w", target, err)
	}
	if held != "" {
		notes = append(notes, held)
	}
	var addrs []string
	if cluster != nil {
		addrs = cluster.Addrs()
	}
	if err := waitReachable(sctx, js, addrs, r.streams); err != nil {
		return nil, fmt.Errorf("nats %s: %w", target, err)
	}
	if kill.Enabled() && cluster == nil {
		if r.killer, err = newHookKiller(sctx, r, o.KillHook); err != nil {
			return nil, fmt.Errorf("nats %s: --kill-hook: %s", target, natsdrv.ErrorMessage(err))
		}
	}
	r.streamLeaders, r.nodes = streamLeaders(infos), len(nodeNames)
	leaders := leaderCounts(r.streamLeaders, nodeNames)
	r.leaderNodes = msgload.Leading(leaders)
	var jsz *natsdrv.JSZ
	if cfg.Monitor != "" {
		if j, jerr := natsdrv.ReadJSZ(ctx, cfg.Monitor); jerr == nil {
			jsz = j
		} else {
			logf("nats: could not read the settings back from %s: %v", cfg.Monitor, jerr)
		}
	}
	if cluster != nil {
		nodes = sprintf("%d-node embedded cluster", cluster.Size())
		notes = append(notes, sprintf(EmbeddedNote, cluster.Size(), version, cores()))
	} else {
		nodes = "target " + target
		if jsz != nil && jsz.Meta != nil {
			nodes = sprintf("%d-node cluster (meta group)", jsz.Meta.Size)
		}
	}
	notes = append(notes, settingsNote(&o, infos, jsz, nodes, names))
	if r0window && o.PublishMode == "async" && hasScenario(names, ScenarioPublish) {
		notes = append(notes, sprintf("nats.Publish async window: %d messages per VU × %d VUs ≈ %d in flight in all, as one nats bench client with --batch 500 (--nats-async-window N gives every VU a window of N)",
			o.AsyncWindow, env.MaxVUs, o.AsyncWindow*env.MaxVUs))
	}
	notes = append(notes, layoutNote(&o, leaders, clusterSize(cluster, jsz), env.MaxVUs, streamsGiven || env.Target != ""))
	r.ids = registerMetrics(env.Metrics, names, &o, cluster != nil)
	opened := &workload.Opened{Scenarios: map[string]vu.Scenario{}, Target: target, TargetVersion: "nats-server " + version}
	for _, n := range names {
		switch n {
		case ScenarioPublish:
			opened.Scenarios[n] = newPublish(r)
		case ScenarioConsume:
			opened.Scenarios[n] = newConsume(r)
		case ScenarioEndToEnd:
			opened.Scenarios[n] = newEndToEnd(r)
		case ScenarioMaxRate:
			opened.Scenarios[n] = newMaxRate(r)
		default:
			return nil, usage.Errorf("nats family has no scenario %q", n)
		}
	}
	opened.Notes = notes
	opened.Close = func() error {
		var errs []error
		for i := len(closers) - 1; i >= 0; i-- {
			errs = append(errs, closers[i]())
		}
		return errors.Join(errs...)
	}
	return opened, nil
}

// span names a list compactly: a, or a … z.
func span(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return names[0] + " … " + names[len(names)-1] + " (" + strconv.Itoa(len(names)) + ")"
}

func hasScenario(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}
