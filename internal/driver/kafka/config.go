// Package kafka is stampede's client side of Kafka-protocol clusters
// (Apache Kafka, Redpanda and forks) on franz-go: targets, connecting,
// stable error messages. The kafka family dials with it; no
// driver.Driver opens kafka:// targets. Targets look like
//
//	kafka://host:9092,host2:9092?sasl=scram-sha-512&user=bench&tls=true
//
// The password comes from the URL's user info, the password query
// parameter, or the STAMPEDE_KAFKA_PASSWORD environment variable, and is
// never printed.
package kafka

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/stampede-bench/stampede/internal/rawnet"
	"github.com/stampede-bench/stampede/internal/redact"
)

// Scheme is the URL scheme of Kafka targets.
const Scheme = "kafka"

// PasswordEnv is the environment variable consulted for the SASL password
// when the URL carries none.
const PasswordEnv = "STAMPEDE_KAFKA_PASSWORD"

// DefaultPort is used for brokers listed without a port.
const DefaultPort = "9092"

// SASL mechanisms accepted in the sasl query parameter.
const (
	SASLPlain       = "plain"
	SASLScramSHA256 = "scram-sha-256"
	SASLScramSHA512 = "scram-sha-512"
)

// Config is a parsed kafka:// target. The zero value is not useful; use
// ParseURL.
type Config struct {
	// Brokers are the seed brokers, host:port.
	Brokers []string
	// SASL is "", "plain", "scram-sha-256" or "scram-sha-512".
	SASL     string
	User     string
	Password string
	// TLS enables TLS with the system roots; TLSInsecure skips
	// verification (tls=insecure), for self-signed test clusters.
	TLS         bool
	TLSInsecure bool
	// ClientID is sent to the brokers (default "stampede").
	ClientID string
	// DialTimeout bounds each connection attempt (default 10s;
	// dial_timeout=D in the URL).
	DialTimeout time.Duration
	raw         *url.URL
}

// ParseURL reads a kafka:// target. getenv (may be nil) supplies
// STAMPEDE_KAFKA_PASSWORD. Errors never contain the password.
func ParseURL(u *url.URL, getenv func(string) string) (Config, error) {
	c := Config{ClientID: "stampede", DialTimeout: 10 * time.Second, raw: u}
	if !strings.EqualFold(u.Scheme, Scheme) {
		return c, fmt.Errorf("kafka target %s: scheme must be %s://", redact.ParsedURL(u), Scheme)
	}
	for _, h := range strings.Split(u.Host, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if _, _, err := net.SplitHostPort(h); err != nil {
			h = net.JoinHostPort(strings.Trim(h, "[]"), DefaultPort)
		}
		c.Brokers = append(c.Brokers, h)
	}
	if len(c.Brokers) == 0 {
		return c, fmt.Errorf("kafka target %s: no brokers (want kafka://host:port,host:port)", redact.ParsedURL(u))
	}
	q := u.Query()
	for k := range q {
		switch k {
		case "sasl", "user", "password", "tls", "client_id", "dial_timeout":
		default:
			return c, fmt.Errorf("kafka target %s: unknown option %q (known: sasl, user, password, tls, client_id, dial_timeout)", redact.ParsedURL(u), k)
		}
	}
	if u.User != nil {
		c.User = u.User.Username()
		c.Password, _ = u.User.Password()
	}
	if v := q.Get("user"); v != "" {
		c.User = v
	}
	if v := q.Get("password"); v != "" {
		c.Password = v
	}
	if c.Password == "" && getenv != nil {
		c.Password = getenv(PasswordEnv)
	}
	c.SASL = strings.ToLower(q.Get("sasl"))
	switch c.SASL {
	case "":
		if c.User != "" {
			c.SASL = SASLPlain // user given without a mechanism: PLAIN, as kcat does
		}
	case SASLPlain, SASLScramSHA256, SASLScramSHA512:
	default:
		return c, fmt.Errorf("kafka target %s: sasl=%q not supported (plain, scram-sha-256, scram-sha-512)", redact.ParsedURL(u), c.SASL)
	}
	if c.SASL != "" && (c.User == "" || c.Password == "") {
		return c, fmt.Errorf("kafka target %s: sasl=%s needs user and password (URL user info, user=/password= or %s)", redact.ParsedURL(u), c.SASL, PasswordEnv)
	}
	switch v := strings.ToLower(q.Get("tls")); v {
	case "", "false", "0":
	case "true", "1":
		c.TLS = true
	case "insecure":
		c.TLS, c.TLSInsecure = true, true
	default:
		return c, fmt.Errorf("kafka target %s: tls=%q: want true, false or insecure", redact.ParsedURL(u), v)
	}
	if v := q.Get("client_id"); v != "" {
		c.ClientID = v
	}
	if v := q.Get("dial_timeout"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("kafka target %s: dial_timeout=%q: want a positive duration", redact.ParsedURL(u), v)
		}
		c.DialTimeout = d
	}
	return c, nil
}

// Parse is ParseURL for a raw string.
func Parse(raw string, getenv func(string) string) (Config, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Config{}, fmt.Errorf("bad kafka target %s: want kafka://host:port,host:port", redact.URL(raw))
	}
	return ParseURL(u, getenv)
}

// String is the target without credentials.
func (c Config) String() string {
	s := Scheme + "://" + strings.Join(c.Brokers, ",")
	var opts []string
	if c.SASL != "" {
		opts = append(opts, "sasl="+c.SASL, "user="+url.QueryEscape(c.User))
	}
	if c.TLSInsecure {
		opts = append(opts, "tls=insecure")
	} else if c.TLS {
		opts = append(opts, "tls=true")
	}
	if len(opts) > 0 {
		s += "?" + strings.Join(opts, "&")
	}
	return s
}

// ClientOpts are the connection options of a franz-go client for c.
func (c Config) ClientOpts() []kgo.Opt {
	opts := []kgo.Opt{
		kgo.SeedBrokers(c.Brokers...),
		kgo.ClientID(c.ClientID),
		kgo.DialTimeout(c.DialTimeout),
	}
	if c.TLS {
		opts = append(opts, kgo.DialTLSConfig(&tls.Config{
			MinVersion:         tls.VersionTLS12,
			InsecureSkipVerify: c.TLSInsecure, //nolint:gosec // explicit tls=insecure
		}))
	} else {
		// Plain TCP with raw reads and writes (package rawnet says why);
		// franz-go's own dialer would be net.Dialer with this timeout.
		d := &rawnet.Dialer{Dialer: net.Dialer{Timeout: c.DialTimeout}}
		opts = append(opts, kgo.Dialer(d.DialContext))
	}
	if m := c.mechanism(); m != nil {
		opts = append(opts, kgo.SASL(m))
	}
	return opts
}

func (c Config) mechanism() sasl.Mechanism {
	switch c.SASL {
	case SASLPlain:
		return plain.Auth{User: c.User, Pass: c.Password}.AsMechanism()
	case SASLScramSHA256:
		return scram.Auth{User: c.User, Pass: c.Password}.AsSha256Mechanism()
	case SASLScramSHA512:
		return scram.Auth{User: c.User, Pass: c.Password}.AsSha512Mechanism()
	}
	return nil
}

// Addr returns the first broker's address (for messages).
func (c Config) Addr() string { return c.Brokers[0] }
