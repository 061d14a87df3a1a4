package labrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stampede-bench/stampede/internal/lab"
)

// Host roles.
const (
	RoleNode   = "node"
	RoleClient = "client"
)

// HostFigures are one host's measured figures over the window.
type HostFigures struct {
	Name string `json:"name"`
	Role string `json:"role"`
	// LinkRate is the shaped rate (bits/s, 0: unshaped); CPUQuota the
	// quota read back from the cgroup (cores, 0: unlimited).
	LinkRate int64   `json:"link_rate_bps"`
	CPUQuota float64 `json:"cpu_quota_cores"`
	// Rx is what reached the host, Tx what it sent: bits/s and packets/s
	// on its interface, from its namespace's counters.
	RxBps float64 `json:"rx_bps"`
	TxBps float64 `json:"tx_bps"`
	RxPps float64 `json:"rx_pps"`
	TxPps float64 `json:"tx_pps"`
	// LinkIn, LinkOut are RxBps, TxBps over LinkRate (0 unshaped).
	LinkIn  float64 `json:"link_in"`
	LinkOut float64 `json:"link_out"`
	// CPU is the cores the host's cgroup used; CPUUtil that over the
	// quota (0 unlimited); Throttled the share of quota periods in which
	// it ran out.
	CPU       float64 `json:"cpu_cores"`
	CPUUtil   float64 `json:"cpu_util"`
	Throttled float64 `json:"throttled"`
	// Node only: Leaders are the streams it leads, TPS the acknowledged
	// messages per second of those streams (their sequence on the
	// leader), WireInPerMsg its received bytes per message it led.
	Leaders      int     `json:"leaders,omitempty"`
	TPS          float64 `json:"tps,omitempty"`
	WireInPerMsg float64 `json:"wire_in_per_msg,omitempty"`
	CPUPerMsg    float64 `json:"cpu_us_per_msg,omitempty"`
}

// Step is the outcome of one step.
type Step struct {
	Label   string `json:"label"`
	Nodes   int    `json:"nodes"`
	Clients int    `json:"clients"`
	// Generators are the generator processes (pairs).
	Generators int     `json:"generators"`
	Profile    string  `json:"profile"`
	Replicas   int     `json:"replicas"`
	Streams    int     `json:"streams"`
	Message    int     `json:"message_bytes"`
	Window     float64 `json:"window_s"`
	// TPS is the cluster's acknowledged messages per second in the
	// window (the streams' sequences); ClientTPS what the generators'
	// own summaries say over their whole run, ClientErrors their failed
	// publishes.
	TPS          float64       `json:"tps"`
	ClientTPS    float64       `json:"client_tps"`
	ClientErrors int64         `json:"client_errors"`
	Hosts        []HostFigures `json:"hosts"`
	// LinkTPS is what one node's link allows after framing (the model:
	// link rate / (wire bytes per message × copies); 0 unshaped);
	// WireModel the modelled wire bytes per message.
	LinkTPS   float64 `json:"link_tps_per_node"`
	WireModel float64 `json:"wire_bytes_model"`
	// HostBusy is the whole machine's busy CPU share in the window;
	// Load1 the load average before and after.
	HostBusy float64    `json:"host_busy"`
	Load1    [2]float64 `json:"load1"`
	// StartUp is the time from nothing to a cluster with its streams
	// led, in seconds.
	StartUp float64 `json:"startup_s"`
	// Bound names what bounded the step; Why gives the figures.
	Bound string   `json:"bound"`
	Why   string   `json:"why"`
	Notes []string `json:"notes,omitempty"`
}

// RunStep builds the fabric of c, runs its nodes and generators,
// measures one window and removes everything again, also when ctx ends
// (Ctrl+C) or a part fails.
func RunStep(ctx context.Context, c Config) (*Step, error) {
	c.Defaults()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, err
	}
	t0 := time.Now()
	var specs []lab.HostSpec
	for i := range c.Nodes {
		specs = append(specs, lab.HostSpec{Name: "n" + strconv.Itoa(i+1), Link: c.NodeLink, CPU: c.NodeCPU})
	}
	for i := range c.Clients {
		specs = append(specs, lab.HostSpec{Name: "c" + strconv.Itoa(i+1), Link: c.ClientLink, CPU: c.ClientCPU})
	}
	f, err := lab.Up(ctx, lab.Spec{Hosts: specs, LedgerDir: c.LedgerDir})
	if err != nil {
		return nil, err
	}
	nodesH, clientsH := f.Hosts[:c.Nodes], f.Hosts[c.Nodes:]
	var nodes []*node
	var gens []*generator
	defer func() {
		if ctx.Err() == nil {
			stopGenerators(gens)
			stopNodes(nodes)
		}
		if derr := f.Down(); derr != nil {
			err = errors.Join(err, derr)
		}
	}()
	c.logf("lab %s: fabric of %d hosts up in %.2fs", f.ID, len(specs), time.Since(t0).Seconds())
	nodes, err = startNodes(&c, f, nodesH)
	if err != nil {
		return nil, err
	}
	c.logf("lab %s: nodes answering after %.2fs", f.ID, time.Since(t0).Seconds())
	ctl, err := dialControl(ctx, f, nodesH)
	if err != nil {
		return nil, err
	}
	defer ctl.close()
	if err := ctl.createStreams(ctx, &c, nodesH); err != nil {
		return nil, err
	}
	startUp := time.Since(t0)
	c.logf("lab %s: %d node(s) ready, %d stream(s) led, in %.2fs", f.ID, c.Nodes, len(c.Pairs())*c.StreamsPerPair, startUp.Seconds())
	gens, err = startGenerators(&c, f, nodesH, clientsH, c.Warmup+c.Window+time.Minute)
	if err != nil {
		return nil, err
	}
	if err := waitPublishing(ctx, &c, ctl, gens); err != nil {
		return nil, err
	}
	if err := sleep(ctx, c.Warmup); err != nil {
		return nil, err
	}
	load0 := load1()
	s0, err := sampleAll(ctx, f, ctl)
	if err != nil {
		return nil, err
	}
	if err := sleep(ctx, c.Window); err != nil {
		return nil, err
	}
	s1, err := sampleAll(ctx, f, ctl)
	if err != nil {
		return nil, err
	}
	for _, g := range gens {
		if g.exited() {
			return nil, fmt.Errorf("lab generator p%d ended inside the window: %s", g.pair.Index, oneLine(g.stderr.String(), g.cmd.ProcessState))
		}
	}
	stopGenerators(gens)
	st := figures(&c, f, s0, s1)
	st.StartUp = startUp.Seconds()
	st.Load1 = [2]float64{load0, load1()}
	for _, g := range gens {
		cc, err := readSummary(g.summary)
		if err != nil {
			st.Notes = append(st.Notes, fmt.Sprintf("generator p%d wrote no readable summary: %v", g.pair.Index, err))
			continue
		}
		st.ClientTPS += cc.Rate
		st.ClientErrors += cc.Errors
	}
	verdict(st)
	return st, nil
}

// waitPublishing waits (up to 60 s) until every stream's sequence moved:
// every generator connected and is publishing.
func waitPublishing(ctx context.Context, c *Config, ctl *control, gens []*generator) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		for _, g := range gens {
			if g.exited() {
				return fmt.Errorf("lab generator p%d ended before publishing: %s", g.pair.Index, oneLine(g.stderr.String(), g.cmd.ProcessState))
			}
		}
		s, err := ctl.sample(ctx)
		idle := ""
		if err == nil {
			for _, p := range c.Pairs() {
				for _, name := range pairStreams(c, p) {
					if s.streams[name].lastSeq == 0 {
						idle = name
					}
				}
			}
			if idle == "" {
				return nil
			}
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("lab: streams unreadable 60s after the generators' start: %v", err)
			}
			said := ""
			for _, g := range gens {
				if strings.HasPrefix(idle, "p"+strconv.Itoa(g.pair.Index)+"-") {
					said = oneLine(g.stderr.String(), nil)
				}
			}
			return fmt.Errorf("lab: stream %s received nothing within 60s of the generators' start (its generator says: %s)", idle, said)
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// sample is everything read at one moment.
type sample struct {
	links   []lab.LinkSample
	cpus    []lab.CPUSample
	streams streamSample
	host    hostCPU
}

// sampleAll reads every host's counters (in parallel, each with its own
// time stamp), every stream, and the machine's CPU.
func sampleAll(ctx context.Context, f *lab.Fabric, ctl *control) (sample, error) {
	s := sample{links: make([]lab.LinkSample, len(f.Hosts)), cpus: make([]lab.CPUSample, len(f.Hosts)), host: readHostCPU()}
	errs := make([]error, 2*len(f.Hosts)+1)
	var wg sync.WaitGroup
	for i, h := range f.Hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.links[i], errs[2*i] = f.SampleLink(ctx, h)
			s.cpus[i], errs[2*i+1] = h.Cgroup.Sample()
		}()
	}
	s.streams, errs[len(errs)-1] = ctl.sample(ctx)
	wg.Wait()
	return s, errors.Join(errs...)
}

// figures turns two samples into the step's figures.
func figures(c *Config, f *lab.Fabric, a, b sample) *Step {
	st := &Step{Nodes: c.Nodes, Clients: c.Clients, Generators: len(c.Pairs()), Profile: c.Profile, Replicas: c.Replicas(),
		Streams: len(c.Pairs()) * c.StreamsPerPair, Message: c.MessageSize}
	st.Window = b.streams.at.Sub(a.streams.at).Seconds()
	// rate per leader: each stream's stored messages over the server's
	// own times of its first and last message in the window.
	led := map[string]float64{}
	leaders := map[string]int{}
	for name, s1 := range b.streams.streams {
		s0, ok := a.streams.streams[name]
		if !ok {
			continue
		}
		leaders[s1.leader]++
		dt := s1.lastTime.Sub(s0.lastTime).Seconds()
		if dt <= 0 || s1.lastSeq <= s0.lastSeq {
			st.Notes = append(st.Notes, fmt.Sprintf("stream %s stored nothing in the window", name))
			continue
		}
		r := float64(s1.lastSeq-s0.lastSeq) / dt
		led[s1.leader] += r
		st.TPS += r
		if s0.leader != s1.leader {
			st.Notes = append(st.Notes, fmt.Sprintf("stream %s changed leader in the window (%s → %s)", name, s0.leader, s1.leader))
		}
	}
	st.WireModel = WireBytes(subjectOf("p0-0"), c.MessageSize)
	if c.NodeLink.Rate > 0 {
		st.LinkTPS = LinkTPS(float64(c.NodeLink.Rate), st.WireModel, c.Replicas())
	}
	for i, h := range f.Hosts {
		l0, l1 := a.links[i], b.links[i]
		ldt := l1.At.Sub(l0.At).Seconds()
		c0, c1 := a.cpus[i], b.cpus[i]
		cdt := c1.At.Sub(c0.At).Seconds()
		hf := HostFigures{Name: h.Name, Role: RoleClient, LinkRate: h.Link.Rate, CPUQuota: c1.QuotaCores,
			RxBps: float64(l1.RxBytes-l0.RxBytes) * 8 / ldt, TxBps: float64(l1.TxBytes-l0.TxBytes) * 8 / ldt,
			RxPps: float64(l1.RxPackets-l0.RxPackets) / ldt, TxPps: float64(l1.TxPackets-l0.TxPackets) / ldt,
			CPU: (c1.Usage - c0.Usage).Seconds() / cdt}
		if i < c.Nodes {
			hf.Role = RoleNode
			hf.Leaders = leaders[h.Name]
			if r := led[h.Name]; r > 0 {
				hf.TPS = r
				hf.WireInPerMsg = hf.RxBps / 8 / r
				hf.CPUPerMsg = hf.CPU / r * 1e6
			}
		}
		if h.Link.Rate > 0 {
			hf.LinkIn, hf.LinkOut = hf.RxBps/float64(h.Link.Rate), hf.TxBps/float64(h.Link.Rate)
		}
		if hf.CPUQuota > 0 {
			hf.CPUUtil = hf.CPU / hf.CPUQuota
		}
		if p := c1.Periods - c0.Periods; p > 0 {
			hf.Throttled = float64(c1.Throttled-c0.Throttled) / float64(p)
		}
		st.Hosts = append(st.Hosts, hf)
	}
	st.HostBusy = busyBetween(a.host, b.host)
	sort.SliceStable(st.Hosts, func(i, j int) bool { return st.Hosts[i].Role == RoleNode && st.Hosts[j].Role != RoleNode })
	return st
}
