// Package webdash is the live web dashboard of a run (k6's
// --web-dashboard): an HTTP server on a loopback port whose page is the
// HTML report (internal/result/report) drawn from the run's per-second
// points as they come, updated every period over server-sent events.
// It is an output.Output; the report of the finished run is the same
// page with the data embedded.
package webdash

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/result/report"
)

// Defaults of Config, as k6's web dashboard (except Period: k6 sends
// every 10 s).
const (
	DefaultHost    = "127.0.0.1"
	DefaultPort    = 5665
	DefaultPeriod  = time.Second
	DefaultClients = 16
	DefaultBuffer  = 4
)

// Config is the dashboard's server. Zero values take the defaults.
type Config struct {
	// Host and Port are where to listen (default 127.0.0.1:5665; port 0
	// picks a free one).
	Host string
	Port int
	// Period is how often the page is updated (default 1 s).
	Period time.Duration
	// Clients bounds the open event streams (default 16; more get 503);
	// Buffer is the events queued per client before it is dropped
	// (default 4).
	Clients, Buffer int
	// Scenarios are the run's scenarios in order; Generator names the
	// tool in the page's footer.
	Scenarios []string
	Generator string
}

// Addr is host:port of c with the defaults applied.
func (c Config) Addr() string {
	host := c.Host
	if host == "" {
		host = DefaultHost
	}
	return net.JoinHostPort(host, strconv.Itoa(c.Port))
}

func (c Config) withDefaults() Config {
	if c.Host == "" {
		c.Host = DefaultHost
	}
	if c.Period <= 0 {
		c.Period = DefaultPeriod
	}
	if c.Clients <= 0 {
		c.Clients = DefaultClients
	}
	if c.Buffer <= 0 {
		c.Buffer = DefaultBuffer
	}
	return c
}

// Dashboard is the web dashboard as an output.Output (and a
// TargetWatcher: --monitor samples are drawn too). Observe only adds the
// second to the live payload (report.Live); the server goroutines encode
// and send it, so a slow page never slows the run.
type Dashboard struct {
	cfg  Config
	live *report.Live
	hub  *hub

	ln     net.Listener
	srv    *http.Server
	served chan struct{}
	quit   chan struct{}
	ticked chan struct{}

	mu   sync.Mutex
	last []byte // the latest payload JSON
	seq  int64
	stop sync.Once
}

var (
	_ output.Output        = (*Dashboard)(nil)
	_ output.TargetWatcher = (*Dashboard)(nil)
)

// New returns the dashboard of cfg; it listens only once started.
func New(cfg Config) *Dashboard {
	cfg = cfg.withDefaults()
	return &Dashboard{
		cfg:  cfg,
		live: report.NewLive(report.LiveOptions{Title: "stampede live dashboard", Generator: cfg.Generator, Scenarios: cfg.Scenarios}),
		hub:  newHub(cfg.Clients, cfg.Buffer),
	}
}

// URL is the page's address (valid once started).
func (d *Dashboard) URL() string {
	if d.ln == nil {
		return "http://" + d.cfg.Addr() + "/"
	}
	return "http://" + d.ln.Addr().String() + "/"
}

// Description names the page.
func (d *Dashboard) Description() string {
	return "web dashboard: " + d.URL() + " (updated every " + d.cfg.Period.String() + ")"
}

// Start listens and serves; a port in use is an error.
func (d *Dashboard) Start() error {
	ln, err := net.Listen("tcp", d.cfg.Addr())
	if err != nil {
		return fmt.Errorf("web dashboard: %w", err)
	}
	d.ln = ln
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", d.page)
	mux.HandleFunc("GET /events", d.events)
	d.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, MaxHeaderBytes: 16 << 10}
	d.served, d.quit, d.ticked = make(chan struct{}), make(chan struct{}), make(chan struct{})
	d.publish()
	go func() {
		defer close(d.served)
		_ = d.srv.Serve(ln)
	}()
	go d.tick()
	return nil
}

// Observe adds one finished second to the page's data.
func (d *Dashboard) Observe(p *metrics.Point) { d.live.Observe(p) }

// WatchTarget draws the --monitor samples.
func (d *Dashboard) WatchTarget(feed output.TargetFeed) { feed.Subscribe(d.live.ObserveTarget) }

// Stop sends the final data and an "end" event, then closes the server
// (within about a second, whatever the clients do).
func (d *Dashboard) Stop() error {
	if d.srv == nil {
		return nil
	}
	d.stop.Do(func() {
		close(d.quit)
		<-d.ticked
		d.live.End()
		d.publish()
		d.mu.Lock()
		d.seq++
		d.hub.send(event(d.seq, "end", []byte("{}")))
		d.mu.Unlock()
		d.hub.close() // the streams end after what they have queued
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := d.srv.Shutdown(ctx); err != nil {
			_ = d.srv.Close()
		}
		<-d.served
	})
	return nil
}

// tick publishes the payload every period until Stop.
func (d *Dashboard) tick() {
	defer close(d.ticked)
	t := time.NewTicker(d.cfg.Period)
	defer t.Stop()
	for {
		select {
		case <-d.quit:
			return
		case <-t.C:
			d.publish()
		}
	}
}

// publish encodes the payload once and queues it for every client.
func (d *Dashboard) publish() {
	data, err := json.Marshal(d.live.Payload())
	if err != nil {
		return // a payload of numbers and strings always encodes
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.last = data
	d.seq++
	d.hub.send(event(d.seq, "payload", data))
}

func (d *Dashboard) latest() (int64, []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seq, d.last
}

// page serves the report page drawn from the latest data.
func (d *Dashboard) page(w http.ResponseWriter, r *http.Request) {
	_, data := d.latest()
	var p report.Payload
	if err := json.Unmarshal(data, &p); err != nil {
		http.Error(w, "no data yet", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = report.RenderLive(w, &p, "events")
}

// writeTimeout bounds one write to a client: a stalled browser's stream
// ends instead of holding its goroutine.
const writeTimeout = 2 * time.Second

// events streams the payload: the latest at once, then each update.
func (d *Dashboard) events(w http.ResponseWriter, r *http.Request) {
	c, ok := d.hub.add()
	if !ok {
		http.Error(w, "too many dashboard clients", http.StatusServiceUnavailable)
		return
	}
	defer d.hub.remove(c)
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	write := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if seq, data := d.latest(); data != nil && !write(event(seq, "payload", data)) {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case ev, open := <-c.ch:
			if !open || !write(ev) {
				return
			}
		}
	}
}
