// Package nats is stampede's client side of NATS servers and JetStream
// clusters on nats.go: targets, connecting, the monitoring endpoint,
// stable error messages. The nats family dials with it; no
// driver.Driver opens nats:// targets. Targets look like
//
//	nats://h1:4222,h2:4222?tls=true&ca=/etc/ca.pem&monitor=http://h1:8222
//
// Credentials come from the URL's user info (user:password, or a bare
// token), the query (user, creds, nkey), or the environment
// (STAMPEDE_NATS_USER, STAMPEDE_NATS_PASSWORD, STAMPEDE_NATS_TOKEN,
// STAMPEDE_NATS_CREDS; the run reads a .env file into that environment).
// Secrets are never printed.
package nats

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/stampede-bench/stampede/internal/rawnet"
	"github.com/stampede-bench/stampede/internal/redact"
)

// Scheme is the URL scheme of NATS targets.
const Scheme = "nats"

// DefaultPort is used for servers listed without a port.
const DefaultPort = "4222"

// Environment variables consulted when the URL carries no credentials.
const (
	UserEnv     = "STAMPEDE_NATS_USER"
	PasswordEnv = "STAMPEDE_NATS_PASSWORD"
	TokenEnv    = "STAMPEDE_NATS_TOKEN"
	CredsEnv    = "STAMPEDE_NATS_CREDS"
)

// Config is a parsed nats:// target. Use ParseURL.
type Config struct {
	// Servers are host:port addresses.
	Servers []string
	// User/Password, Token, Creds (a .creds file) and NKey (a seed file)
	// are the supported authentications; at most one kind is used.
	User, Password, Token string
	Creds, NKey           string
	// TLS turns TLS on; TLSInsecure skips verification (tls=insecure);
	// CA, Cert and Key are PEM files (ca=, cert=, key=).
	TLS         bool
	TLSInsecure bool
	CA          string
	Cert, Key   string
	// Monitor is the HTTP monitoring endpoint (monitor=http://h:8222), from
	// which settings such as the fsync interval are read back.
	Monitor string
	// Name is the client name shown by the server (default "stampede").
	Name string
	// DialTimeout bounds each connection attempt (default 5s).
	DialTimeout time.Duration
}

var knownKeys = []string{"user", "password", "token", "creds", "nkey", "tls", "ca", "cert", "key", "monitor", "name", "dial_timeout"}

// ParseURL reads a nats:// target; getenv (may be nil) supplies the
// STAMPEDE_NATS_* variables. Errors never contain secrets.
func ParseURL(u *url.URL, getenv func(string) string) (Config, error) {
	c := Config{Name: "stampede", DialTimeout: 5 * time.Second}
	red := redact.ParsedURL(u)
	if !strings.EqualFold(u.Scheme, Scheme) {
		return c, fmt.Errorf("nats target %s: scheme must be %s://", red, Scheme)
	}
	for _, h := range strings.Split(u.Host, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if _, _, err := net.SplitHostPort(h); err != nil {
			h = net.JoinHostPort(strings.Trim(h, "[]"), DefaultPort)
		}
		c.Servers = append(c.Servers, h)
	}
	if len(c.Servers) == 0 {
		return c, fmt.Errorf("nats target %s: no servers (want nats://host:port,host:port)", red)
	}
	q := u.Query()
	for k := range q {
		known := false
		for _, kk := range knownKeys {
			known = known || k == kk
		}
		if !known {
			return c, fmt.Errorf("nats target %s: unknown option %q (known: %s)", red, k, strings.Join(knownKeys, ", "))
		}
	}
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			c.User, c.Password = u.User.Username(), p
		} else {
			c.Token = u.User.Username() // nats://TOKEN@host, as nats.go reads it
		}
	}
	env := func(k string) string {
		if getenv == nil {
			return ""
		}
		return getenv(k)
	}
	pick := func(dst *string, key, envKey string) {
		if v := q.Get(key); v != "" {
			*dst = v
		}
		if *dst == "" && envKey != "" {
			*dst = env(envKey)
		}
	}
	pick(&c.User, "user", UserEnv)
	pick(&c.Password, "password", PasswordEnv)
	pick(&c.Token, "token", TokenEnv)
	pick(&c.Creds, "creds", CredsEnv)
	pick(&c.NKey, "nkey", "")
	pick(&c.CA, "ca", "")
	pick(&c.Cert, "cert", "")
	pick(&c.Key, "key", "")
	pick(&c.Monitor, "monitor", "")
	if v := q.Get("name"); v != "" {
		c.Name = v
	}
	kinds := 0
	for _, set := range []bool{c.User != "" || c.Password != "", c.Token != "", c.Creds != "", c.NKey != ""} {
		if set {
			kinds++
		}
	}
	switch {
	case kinds > 1:
		return c, fmt.Errorf("nats target %s: give one kind of credentials (user/password, token, creds or nkey)", red)
	case (c.User == "") != (c.Password == ""):
		return c, fmt.Errorf("nats target %s: user and password go together (URL user info, user=/password= or %s/%s)", red, UserEnv, PasswordEnv)
	case (c.Cert == "") != (c.Key == ""):
		return c, fmt.Errorf("nats target %s: cert= and key= go together", red)
	}
	switch v := strings.ToLower(q.Get("tls")); v {
	case "", "false", "0":
		c.TLS = c.CA != "" || c.Cert != ""
	case "true", "1":
		c.TLS = true
	case "insecure":
		c.TLS, c.TLSInsecure = true, true
	default:
		return c, fmt.Errorf("nats target %s: tls=%q: want true, false or insecure", red, v)
	}
	if v := q.Get("dial_timeout"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("nats target %s: dial_timeout=%q: want a duration like 5s", red, v)
		}
		c.DialTimeout = d
	}
	if c.Monitor != "" {
		mu, err := url.Parse(c.Monitor)
		if err != nil || (mu.Scheme != "http" && mu.Scheme != "https") || mu.Host == "" {
			return c, fmt.Errorf("nats target %s: monitor=%q: want http://host:8222", red, c.Monitor)
		}
	}
	return c, nil
}

// Parse is ParseURL for a string.
func Parse(raw string, getenv func(string) string) (Config, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Config{}, fmt.Errorf("bad nats target %s: want nats://host:port,host:port", redact.URL(raw))
	}
	return ParseURL(u, getenv)
}

// URLs is the server list in nats.go's form: nats://h1:4222,nats://h2:4222.
func (c Config) URLs() string {
	s := make([]string, len(c.Servers))
	for i, h := range c.Servers {
		s[i] = "nats://" + h
	}
	return strings.Join(s, ",")
}

// String describes the target without secrets.
func (c Config) String() string {
	s := "nats://" + strings.Join(c.Servers, ",")
	switch {
	case c.User != "":
		s = "nats://" + c.User + ":xxxxx@" + strings.Join(c.Servers, ",")
	case c.Token != "":
		s += " (token)"
	case c.Creds != "":
		s += " (creds file)"
	case c.NKey != "":
		s += " (nkey)"
	}
	if c.TLS {
		s += " (TLS)"
	}
	return s
}

// Options are the nats.go connection options of c.
func (c Config) Options() ([]nats.Option, error) {
	opts := []nats.Option{nats.Name(c.Name), nats.Timeout(c.DialTimeout),
		// TCP with raw reads and writes (package rawnet says why); TLS,
		// when asked for, runs on top of it.
		nats.SetCustomDialer(&rawnet.Dialer{Dialer: net.Dialer{Timeout: c.DialTimeout}})}
	switch {
	case c.User != "":
		opts = append(opts, nats.UserInfo(c.User, c.Password))
	case c.Token != "":
		opts = append(opts, nats.Token(c.Token))
	case c.Creds != "":
		opts = append(opts, nats.UserCredentials(c.Creds))
	case c.NKey != "":
		o, err := nats.NkeyOptionFromSeed(c.NKey)
		if err != nil {
			return nil, fmt.Errorf("nats nkey seed file: %v", err)
		}
		opts = append(opts, o)
	}
	if c.TLS {
		tc := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: c.TLSInsecure} //nolint:gosec // tls=insecure is the user's explicit choice
		opts = append(opts, nats.Secure(tc))
		if c.CA != "" {
			opts = append(opts, nats.RootCAs(c.CA))
		}
		if c.Cert != "" {
			opts = append(opts, nats.ClientCert(c.Cert, c.Key))
		}
	}
	return opts, nil
}

// Connect opens a connection to c with extra options after c's own.
func Connect(c Config, extra ...nats.Option) (*nats.Conn, error) {
	opts, err := c.Options()
	if err != nil {
		return nil, err
	}
	nc, err := nats.Connect(c.URLs(), append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %s", c, ErrorMessage(err))
	}
	return nc, nil
}
