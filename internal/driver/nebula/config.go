// Package nebula is stampede's driver for NebulaGraph 3.x's graph service
// (graphd), URL scheme "nebula":
//
//	nebula://user:password@host1:9669,host2:9669/SPACE?client_version=3.0.0
//
// It speaks Thrift over TCP with the THeader transport and the compact
// protocol inside it, as NebulaGraph's own clients do, using Apache
// Thrift's Go library and code generated from graph.thrift, stampede's
// own minimal IDL of the published interface (package graphsvc). The
// per-operation call, execute, is encoded and decoded by stampede's own
// compact-protocol code instead (compact.go): on reused frame buffers,
// without an allocation per operation.
//
// Every VU owns one connection and one session: verifyClientVersion,
// authenticate, USE SPACE, then execute per operation, signout on Close.
// Connections are spread over the addresses round-robin. A connection
// that breaks (or times out: its state is then unknown) is reopened by a
// later operation after a backoff, on the next address. The server's
// latency_in_us becomes driver.Result.ServerLatency; a failed statement's
// error is named by its ErrorCode, "E_EXECUTION_ERROR(-1005): message".
//
// Credentials come from the URL, else from NEBULA_USER / NEBULA_PASSWORD
// (environment or .env); they never appear in errors or output.
//
// This driver was verified only against stampede's in-test stand-in of
// graphd (package nebulatest), never against a real NebulaGraph server.
package nebula

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/redact"
)

// Scheme is the URL scheme of this driver.
const Scheme = "nebula"

// Defaults of a target URL.
const (
	// DefaultPort is graphd's port when an address has none.
	DefaultPort = "9669"
	// DefaultClientVersion is what verifyClientVersion sends unless the
	// URL sets client_version: the version constant of the 3.x IDL.
	DefaultClientVersion = "3.0.0"
	// DefaultConnectTimeout bounds dialing and the session handshake
	// unless the URL sets connect_timeout.
	DefaultConnectTimeout = 10 * time.Second
	// DefaultUser and DefaultPassword are NebulaGraph's out-of-the-box
	// credentials, used when neither the URL nor the environment has any.
	DefaultUser     = "root"
	DefaultPassword = "nebula"
)

// StandInVersion is the version stampede's in-test stand-in graphd
// (package nebulatest) answers, so that runs against it say so.
const StandInVersion = "stampede-nebulatest stand-in (not a NebulaGraph server)"

// Config is a parsed nebula:// target.
type Config struct {
	// Addrs are the graphd addresses, host:port.
	Addrs []string
	// User and Password authenticate every session.
	User, Password string
	// Space is the graph space every session uses ("" for none: load).
	Space string
	// ClientVersion is sent by verifyClientVersion.
	ClientVersion string
	// ConnectTimeout bounds dialing plus the handshake of one session.
	ConnectTimeout time.Duration
	// Redacted is the target URL without its password, for messages.
	Redacted string
}

// ParseConfig reads a nebula:// URL; getenv (may be nil) supplies
// NEBULA_USER and NEBULA_PASSWORD when the URL has none. Errors never
// contain the password.
func ParseConfig(u *url.URL, getenv func(string) string) (*Config, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	c := &Config{ClientVersion: DefaultClientVersion, ConnectTimeout: DefaultConnectTimeout, Redacted: redact.ParsedURL(u)}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("bad nebula target %s: %s", c.Redacted, fmt.Sprintf(format, a...))
	}
	if u.Opaque != "" {
		return nil, bad("want nebula://user:pass@host:9669/SPACE")
	}
	for _, h := range strings.Split(u.Host, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		host, port, err := net.SplitHostPort(h)
		if err != nil {
			host, port = h, DefaultPort
		}
		if host == "" {
			return nil, bad("address %q has no host", h)
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return nil, bad("address %q: bad port", h)
		}
		c.Addrs = append(c.Addrs, net.JoinHostPort(host, port))
	}
	if len(c.Addrs) == 0 {
		return nil, bad("no graphd address (want nebula://user:pass@host:9669/SPACE)")
	}
	c.Space = strings.Trim(u.Path, "/")
	if strings.Contains(c.Space, "/") || strings.ContainsAny(c.Space, "`\"' ;") {
		return nil, bad("space %q: want one name", c.Space)
	}
	if u.User != nil {
		c.User = u.User.Username()
		c.Password, _ = u.User.Password()
	}
	if c.User == "" {
		c.User = getenv("NEBULA_USER")
	}
	if c.Password == "" {
		c.Password = getenv("NEBULA_PASSWORD")
	}
	if c.User == "" {
		c.User = DefaultUser
		if c.Password == "" {
			c.Password = DefaultPassword
		}
	}
	q := u.Query()
	for k := range q {
		switch k {
		case "client_version", "connect_timeout":
		default:
			return nil, bad("unknown parameter %q (known: client_version, connect_timeout)", k)
		}
	}
	if v := q.Get("client_version"); v != "" {
		c.ClientVersion = v
	}
	if v := q.Get("connect_timeout"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, bad("connect_timeout %q: want a duration such as 5s", v)
		}
		c.ConnectTimeout = d
	}
	return c, nil
}
