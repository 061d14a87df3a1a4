package kafka

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name    string
		raw     string
		env     map[string]string
		want    Config
		wantErr string
	}{
		{"one broker", "kafka://localhost:9092", nil,
			Config{Brokers: []string{"localhost:9092"}}, ""},
		{"many brokers, default port", "kafka://b1,b2,b3:9093", nil,
			Config{Brokers: []string{"b1:9092", "b2:9092", "b3:9093"}}, ""},
		{"sasl scram from user info", "kafka://bench:s3cret@b1:9092?sasl=scram-sha-512&tls=true", nil,
			Config{Brokers: []string{"b1:9092"}, SASL: SASLScramSHA512, User: "bench", Password: "s3cret", TLS: true}, ""},
		{"password from env", "kafka://b1:9092?sasl=scram-sha-256&user=bench", map[string]string{PasswordEnv: "fromenv"},
			Config{Brokers: []string{"b1:9092"}, SASL: SASLScramSHA256, User: "bench", Password: "fromenv"}, ""},
		{"user implies plain", "kafka://b1:9092?user=u&password=pw1234", nil,
			Config{Brokers: []string{"b1:9092"}, SASL: SASLPlain, User: "u", Password: "pw1234"}, ""},
		{"tls insecure", "kafka://b1:9092?tls=insecure&dial_timeout=2s&client_id=x", nil,
			Config{Brokers: []string{"b1:9092"}, TLS: true, TLSInsecure: true, ClientID: "x", DialTimeout: 2 * time.Second}, ""},
		{"sasl without password", "kafka://b1:9092?sasl=plain&user=u", nil, Config{}, "needs user and password"},
		{"bad mechanism", "kafka://b1:9092?sasl=gssapi", nil, Config{}, "not supported"},
		{"unknown option", "kafka://b1:9092?acks=all", nil, Config{}, `unknown option "acks"`},
		{"no brokers", "kafka://", nil, Config{}, "no brokers"},
		{"bad tls", "kafka://b1?tls=maybe", nil, Config{}, "tls="},
		{"wrong scheme", "http://b1:9092", nil, Config{}, "scheme must be kafka"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.raw, env(tc.env))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want.ClientID == "" {
				tc.want.ClientID = "stampede"
			}
			if tc.want.DialTimeout == 0 {
				tc.want.DialTimeout = 10 * time.Second
			}
			got.raw = nil
			if got.String() != tc.want.String() || got.Password != tc.want.Password || got.TLSInsecure != tc.want.TLSInsecure ||
				got.ClientID != tc.want.ClientID || got.DialTimeout != tc.want.DialTimeout || got.User != tc.want.User {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
			if got.Password != "" && strings.Contains(got.String(), got.Password) {
				t.Errorf("String() leaks the password: %s", got)
			}
		})
	}
}

// No error message may contain the password.
func TestParseErrorsHidePassword(t *testing.T) {
	for _, raw := range []string{
		"kafka://u:topsecret@b1:9092?sasl=gssapi",
		"kafka://b1:9092?password=topsecret&sasl=nope",
		"kafka://b1:9092?password=topsecret&bogus=1",
	} {
		_, err := Parse(raw, nil)
		if err == nil {
			t.Fatalf("%s: want error", raw)
		}
		if strings.Contains(err.Error(), "topsecret") {
			t.Errorf("error leaks the password: %v", err)
		}
	}
}

func TestClientOpts(t *testing.T) {
	for _, raw := range []string{"kafka://b1", "kafka://u:p@b1?sasl=scram-sha-256&tls=true", "kafka://u:p@b1?sasl=scram-sha-512", "kafka://u:p@b1?sasl=plain"} {
		c, err := Parse(raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(c.ClientOpts()); n < 3 {
			t.Errorf("%s: %d options", raw, n)
		}
	}
}
