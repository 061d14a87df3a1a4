package nats

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func TestParse(t *testing.T) {
	env := map[string]string{PasswordEnv: "envpw", UserEnv: "envuser"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name, raw string
		getenv    func(string) string
		check     func(Config) bool
		wantErr   string
	}{
		{name: "servers with default port", raw: "nats://a,b:4223",
			check: func(c Config) bool {
				return c.URLs() == "nats://a:4222,nats://b:4223" && c.String() == "nats://a:4222,b:4223"
			}},
		{name: "user and password in the URL", raw: "nats://u:secret@a",
			check: func(c Config) bool {
				return c.User == "u" && c.Password == "secret" && c.String() == "nats://u:xxxxx@a:4222"
			}},
		{name: "token as bare user info", raw: "nats://s3cr3t@a",
			check: func(c Config) bool { return c.Token == "s3cr3t" && !strings.Contains(c.String(), "s3cr3t") }},
		{name: "user and password from env", raw: "nats://a", getenv: getenv,
			check: func(c Config) bool { return c.User == "envuser" && c.Password == "envpw" }},
		{name: "tls from ca", raw: "nats://a?ca=/ca.pem",
			check: func(c Config) bool { return c.TLS && c.CA == "/ca.pem" && !c.TLSInsecure }},
		{name: "tls insecure", raw: "nats://a?tls=insecure", check: func(c Config) bool { return c.TLS && c.TLSInsecure }},
		{name: "monitor", raw: "nats://a?monitor=http://a:8222", check: func(c Config) bool { return c.Monitor == "http://a:8222" }},
		{name: "dial timeout", raw: "nats://a?dial_timeout=2s", check: func(c Config) bool { return c.DialTimeout.Seconds() == 2 }},
		{name: "wrong scheme", raw: "kafka://a", wantErr: "scheme must be nats://"},
		{name: "no servers", raw: "nats://", wantErr: "no servers"},
		{name: "unknown option", raw: "nats://a?foo=1", wantErr: `unknown option "foo"`},
		{name: "two kinds of credentials", raw: "nats://u:pw@a?token=t", wantErr: "one kind of credentials"},
		{name: "user without password", raw: "nats://a?user=u", wantErr: "user and password go together"},
		{name: "cert without key", raw: "nats://a?cert=c.pem", wantErr: "cert= and key= go together"},
		{name: "bad tls", raw: "nats://a?tls=maybe", wantErr: "tls="},
		{name: "bad monitor", raw: "nats://a?monitor=a:8222", wantErr: "monitor="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(tt.raw, tt.getenv)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "pw@") {
					t.Fatalf("error leaks a secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Fatalf("unexpected config %+v (%s)", c, c)
			}
			if _, err := c.Options(); err != nil && c.NKey == "" {
				t.Fatal(err)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("publish: %w", jetstream.ErrNoStreamResponse), "no responders: the stream has no leader"},
		{nats.ErrNoResponders, "no responders"},
		{context.DeadlineExceeded, "timeout waiting for the publish acknowledgement"},
		{nats.ErrTimeout, "timeout waiting for the publish acknowledgement"},
		{&jetstream.APIError{Code: 503, ErrorCode: 10074, Description: "resource limits exceeded for account"}, "jetstream: resource limits exceeded for account"},
		{errors.New("nats: something else on connection [7]"), "something else"},
	}
	for _, tt := range tests {
		if got := ErrorMessage(tt.err); !strings.HasPrefix(got, tt.want) {
			t.Errorf("ErrorMessage(%v) = %q, want prefix %q", tt.err, got, tt.want)
		}
	}
	if Wrap(nil) != nil {
		t.Error("Wrap(nil) != nil")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"nats://a:1,b", "nats://u:pw@h?tls=true&ca=x", "nats://t@h?monitor=http://h:8222", "nats://[::1]:4222"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		c, err := Parse(raw, nil)
		if err != nil {
			if c.Password != "" && strings.Contains(err.Error(), c.Password) && len(c.Password) > 3 {
				t.Fatalf("error leaks the password: %v", err)
			}
			return
		}
		if c.Password != "" && len(c.Password) > 3 && strings.Contains(c.String(), c.Password) {
			t.Fatalf("String leaks the password: %s", c)
		}
		if len(c.Servers) == 0 {
			t.Fatal("parsed without servers")
		}
	})
}
