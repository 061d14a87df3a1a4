package kafka

import (
	"crypto/tls"
	"net/url"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/testcert"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// dial connects to u as the kafka family does: ParseURL, then Connect.
func dial(t *testing.T, u *url.URL, getenv func(string) string) (*kgo.Client, error) {
	t.Helper()
	cfg, err := ParseURL(u, getenv)
	if err != nil {
		return nil, err
	}
	return Connect(t.Context(), cfg)
}

// SASL options reach the broker: the right credentials connect, wrong ones
// fail at connect with a message that does not contain the password.
func TestSASL(t *testing.T) {
	tests := []struct {
		name, method, mech string
	}{
		{"plain", "PLAIN", "plain"},
		{"scram-sha-256", "SCRAM-SHA-256", "scram-sha-256"},
		{"scram-sha-512", "SCRAM-SHA-512", "scram-sha-512"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.Superuser(tc.method, "bench", "s3cr3t-pw"))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			addr := c.ListenAddrs()[0]
			getenv := func(k string) string {
				if k == PasswordEnv {
					return "s3cr3t-pw"
				}
				return ""
			}
			u, _ := url.Parse("kafka://" + addr + "?sasl=" + tc.mech + "&user=bench")
			cl, err := dial(t, u, getenv)
			if err != nil {
				t.Fatalf("connect with the password from %s: %v", PasswordEnv, err)
			}
			cl.Close()
			u, _ = url.Parse("kafka://bench:wrong-pw@" + addr + "?sasl=" + tc.mech + "&dial_timeout=2s")
			_, err = dial(t, u, nil)
			if err == nil {
				t.Fatal("wrong password accepted")
			}
			if strings.Contains(err.Error(), "wrong-pw") {
				t.Errorf("error leaks the password: %v", err)
			}
		})
	}
}

func TestTLSInsecure(t *testing.T) {
	cert := testcert.SelfSigned(t)
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.TLS(&tls.Config{Certificates: []tls.Certificate{cert}}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	addr := c.ListenAddrs()[0]
	u, _ := url.Parse("kafka://" + addr + "?tls=insecure")
	cl, err := dial(t, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl.Close()
	// Verified TLS rejects the self-signed certificate.
	u, _ = url.Parse("kafka://" + addr + "?tls=true&dial_timeout=2s")
	if _, err := dial(t, u, nil); err == nil {
		t.Error("self-signed certificate accepted with tls=true")
	}
}
