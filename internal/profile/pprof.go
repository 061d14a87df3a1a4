package profile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	pprofile "github.com/google/pprof/profile"
)

// Limits of the pprof fetch.
const (
	// MaxProfileBytes caps the size of a fetched profile: 256 MiB.
	MaxProfileBytes = 256 << 20
	// FetchGrace is how long past the requested seconds the fetch may
	// take before it is abandoned: 60 s.
	FetchGrace = 60 * time.Second
)

// PprofCollector fetches a CPU profile from a Go program's net/http/pprof
// endpoint while a scenario runs: Start requests
// URL/debug/pprof/profile?seconds=N in the background (N = the scope's
// Duration rounded up to whole seconds, at least 1) and Stop waits for the
// answer, checks it parses as a profile and writes it to
// Dir/<scenario>.cpu.pprof.
//
// Credentials in the URL are sent as basic auth and never appear in
// messages. Not safe for concurrent use: one scenario at a time.
type PprofCollector struct {
	// Client makes the request; nil means http.DefaultClient. The fetch
	// is bounded by N seconds plus FetchGrace either way.
	Client *http.Client

	endpoint *url.URL      // the profile URL, without userinfo
	user     *url.Userinfo // credentials from the URL, if any

	run *pprofRun // the recording in progress, nil when idle
}

// pprofRun is one background fetch.
type pprofRun struct {
	scope  Scope
	cancel context.CancelFunc
	done   chan struct{}
	data   []byte // valid after done when err is nil
	err    error
}

var _ Collector = (*PprofCollector)(nil)

// NewPprofCollector returns a PprofCollector for a program serving
// net/http/pprof at rawURL, given as http(s)://host:port; a path ending in
// /debug/pprof or /debug/pprof/profile is also accepted. Errors are
// usage errors (package usage).
func NewPprofCollector(rawURL string) (*PprofCollector, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		// url.Parse errors quote the whole URL, credentials included.
		return nil, badSpec("pprof= needs a URL like http://host:port")
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, badSpec("pprof=%s: need an http:// or https:// URL with a host", stripUser(u))
	}
	c := &PprofCollector{user: u.User}
	ep := *u
	ep.User = nil
	ep.Fragment = ""
	path := strings.TrimSuffix(ep.Path, "/")
	switch {
	case strings.HasSuffix(path, "/debug/pprof/profile"):
	case strings.HasSuffix(path, "/debug/pprof"):
		path += "/profile"
	default:
		path += "/debug/pprof/profile"
	}
	ep.Path, ep.RawPath = path, ""
	c.endpoint = &ep
	return c, nil
}

// String describes the collector without credentials.
func (c *PprofCollector) String() string { return "pprof " + c.endpoint.String() }

// Start begins fetching a CPU profile for s. The fetch runs in the
// background and is not cancelled with ctx (a scenario's context usually
// ends before the profile is complete); Stop ends it.
func (c *PprofCollector) Start(ctx context.Context, s Scope) error {
	if c.run != nil {
		return fmt.Errorf("pprof collector: Start for %q while %q is still recording", s.Scenario, c.run.scope.Scenario)
	}
	if err := ensureDir(s.Dir); err != nil {
		return fmt.Errorf("pprof collector: %w", err)
	}
	secs := max(1, int(math.Ceil(s.Duration.Seconds())))
	u := *c.endpoint
	q := u.Query()
	q.Set("seconds", strconv.Itoa(secs))
	u.RawQuery = q.Encode()

	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Duration(secs)*time.Second+FetchGrace)
	run := &pprofRun{scope: s, cancel: cancel, done: make(chan struct{})}
	c.run = run
	go func() {
		defer close(run.done)
		run.data, run.err = c.fetch(fctx, &u)
	}()
	return nil
}

// fetch GETs u and returns the validated profile bytes. Errors name the
// URL without credentials.
func (c *PprofCollector) fetch(ctx context.Context, u *url.URL) ([]byte, error) {
	fail := func(format string, args ...any) ([]byte, error) {
		return nil, fmt.Errorf("pprof %s: %s", u, fmt.Sprintf(format, args...))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fail("%v", err)
	}
	if c.user != nil {
		pass, _ := c.user.Password()
		req.SetBasicAuth(c.user.Username(), pass)
	}
	client := c.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // its message repeats the URL
		}
		return fail("%v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxProfileBytes+1))
	if err != nil {
		return fail("reading response: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		return fail("%s: %s", resp.Status, firstLine(body))
	}
	if len(body) > MaxProfileBytes {
		return fail("profile larger than %d bytes", MaxProfileBytes)
	}
	if _, err := pprofile.ParseData(body); err != nil {
		return fail("response is not a pprof profile: %v", err)
	}
	return body, nil
}

// Stop waits for the fetch started by Start and writes the profile to
// Dir/<scenario>.cpu.pprof. If ctx ends first the fetch is abandoned and
// ctx's error returned.
func (c *PprofCollector) Stop(ctx context.Context) ([]string, error) {
	run := c.run
	if run == nil {
		return nil, errors.New("pprof collector: Stop without Start")
	}
	c.run = nil
	defer run.cancel()
	select {
	case <-run.done:
	case <-ctx.Done():
		run.cancel()
		<-run.done
		return nil, fmt.Errorf("pprof collector: %q: %w", run.scope.Scenario, ctx.Err())
	}
	if run.err != nil {
		return nil, run.err
	}
	path := filepath.Join(run.scope.Dir, fileName(run.scope.Scenario)+".cpu.pprof")
	if err := writeAtomic(path, run.data); err != nil {
		return nil, fmt.Errorf("pprof collector: %w", err)
	}
	return []string{path}, nil
}

// stripUser returns u as a string without userinfo.
func stripUser(u *url.URL) string {
	v := *u
	v.User = nil
	return v.String()
}

// firstLine returns the first line of b, at most 200 bytes, for messages.
func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
