// Package monitor watches the target while a run goes: it samples
// Prometheus exposition endpoints of the target's hosts (node_exporter,
// process-exporter, any server's /metrics) and local processes (/proc)
// every second, derives rates from their counters, writes one line per
// source and second to File, and summarizes a time window (a scenario) per
// source: CPU utilisation and busy cores, memory, network and disk rates,
// and a process's CPU, resident memory and threads.
//
// Sampling runs on its own goroutines and shares nothing with the
// recording path; a failed scrape is counted and written as a line with
// its error, and never stops the run.
package monitor

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Kinds of source.
const (
	// KindHTTP is a Prometheus text-format endpoint.
	KindHTTP = "http"
	// KindPID is a local process (or the processes of one name) read from
	// /proc.
	KindPID = "pid"
)

// Spec is one --monitor source as the user gave it.
type Spec struct {
	// ID names the source in series, summaries and outputs: the NAME given,
	// made unique with @HOST:PORT when several sources share it; for pid
	// sources "pid:1234" or "pid:NAME".
	ID   string
	Kind string
	// URL is the endpoint to scrape (KindHTTP); never shown (it may hold
	// credentials), Display is.
	URL string
	// Display is the endpoint without user info, query or fragment.
	Display string
	// Metrics are extra metric names to record from the endpoint (the
	// URL's #fragment, comma-separated).
	Metrics []string
	// Groups are the process-exporter groups that are the target (the
	// fragment's group=NAME items): only they are read and summed into
	// the process figures. Empty: every group the page has.
	Groups []string
	// PID is the process id (KindPID), or 0 with ProcName set.
	PID      int
	ProcName string
}

var validName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// ParseSpec parses one --monitor value:
//
//	node=http://HOST:9100/metrics          node_exporter (host CPU, memory, network, disk)
//	process=http://HOST:9256/metrics       process-exporter (per group CPU, RSS, threads)
//	NAME=URL#metric_a,metric_b             any endpoint, with extra metrics to record
//	pid=1234 | pid=NAME                    a local process by PID, or every process of that name
//
// Every HTTP endpoint is read for all it offers: node_exporter's host
// metrics, process-exporter's groups, and a server's own process_* metrics
// when it has neither. The #fragment is never sent to the server.
func ParseSpec(s string) (Spec, error) {
	name, val, ok := strings.Cut(s, "=")
	name, val = strings.TrimSpace(name), strings.TrimSpace(val)
	if !ok || name == "" || val == "" {
		return Spec{}, fmt.Errorf("--monitor %q: want NAME=URL (node=http://HOST:9100/metrics) or pid=PID|NAME", redactSpec(s))
	}
	if !validName.MatchString(name) {
		return Spec{}, fmt.Errorf("--monitor %s=…: name %q: want letters, digits, _ . - (starting with a letter)", name, name)
	}
	if name == KindPID {
		if n, err := strconv.Atoi(val); err == nil {
			if n <= 0 {
				return Spec{}, fmt.Errorf("--monitor pid=%s: want a PID ≥ 1 or a process name", val)
			}
			return Spec{ID: "pid:" + val, Kind: KindPID, PID: n, Display: "/proc/" + val}, nil
		}
		if strings.ContainsAny(val, "/ ") {
			return Spec{}, fmt.Errorf("--monitor pid=%s: want a PID or a process name (its comm, as ps -o comm shows)", val)
		}
		return Spec{ID: "pid:" + val, Kind: KindPID, ProcName: val, Display: "processes named " + val}, nil
	}
	u, err := url.Parse(val)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Spec{}, fmt.Errorf("--monitor %s=%s: want an http:// or https:// URL of a Prometheus metrics endpoint, e.g. http://10.0.0.5:9100/metrics", name, redactURL(val))
	}
	sp := Spec{ID: name, Kind: KindHTTP}
	if u.Fragment != "" {
		for _, m := range strings.Split(u.Fragment, ",") {
			m = strings.TrimSpace(m)
			if g, ok := strings.CutPrefix(m, "group="); ok {
				if g == "" {
					return Spec{}, fmt.Errorf("--monitor %s=…#group=: name a process-exporter group", name)
				}
				sp.Groups = append(sp.Groups, g)
				continue
			}
			if m != "" {
				sp.Metrics = append(sp.Metrics, m)
			}
		}
		u.Fragment = ""
	}
	if u.Path == "" {
		u.Path = "/metrics"
	}
	sp.URL = u.String()
	sp.Display = redactURL(sp.URL)
	return sp, nil
}

// ParseSpecs parses every --monitor value and makes the IDs unique: names
// given more than once get @HOST:PORT appended; a duplicate that stays
// ambiguous is an error.
func ParseSpecs(vals []string) ([]Spec, error) {
	var out []Spec
	count := map[string]int{}
	for _, v := range vals {
		sp, err := ParseSpec(v)
		if err != nil {
			return nil, err
		}
		count[sp.ID]++
		out = append(out, sp)
	}
	seen := map[string]bool{}
	for i := range out {
		sp := &out[i]
		if count[sp.ID] > 1 && sp.Kind == KindHTTP {
			u, _ := url.Parse(sp.URL)
			sp.ID += "@" + u.Host
		}
		if seen[sp.ID] {
			return nil, fmt.Errorf("--monitor %s is given twice", sp.ID)
		}
		seen[sp.ID] = true
	}
	return out, nil
}

// redactURL shows scheme, host and path only: user info and query
// parameters may hold credentials.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "(unparsable URL)"
	}
	return u.Scheme + "://" + u.Host + u.Path
}

func redactSpec(s string) string {
	if name, val, ok := strings.Cut(s, "="); ok && strings.Contains(val, "://") {
		return name + "=" + redactURL(val)
	}
	if strings.Contains(s, "://") {
		return redactURL(s)
	}
	return s
}

// Local reports whether a source runs on this machine: a pid source, or
// an endpoint on a loopback address or localhost. A local target shares
// the generator's CPU, so its saturation cannot be told from the client's.
func (sp Spec) Local() bool {
	if sp.Kind == KindPID {
		return true
	}
	return IsLocalEndpoint(sp.Display)
}

// IsLocalEndpoint reports whether a displayed endpoint (as in options.json:
// "ID=http://HOST:PORT/path" or just the URL, or "/proc/...") is on this
// machine.
func IsLocalEndpoint(display string) bool {
	if _, rest, ok := strings.Cut(display, "="); ok && !strings.Contains(display[:strings.Index(display, "=")], "/") {
		display = rest
	}
	if strings.HasPrefix(display, "/proc/") || strings.HasPrefix(display, "processes named ") {
		return true
	}
	u, err := url.Parse(display)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
