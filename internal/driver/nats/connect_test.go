package nats

import (
	"crypto/tls"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/stampede-bench/stampede/internal/testcert"
)

// startServer runs a nats-server on a free loopback port, with TLS when
// tc is set.
func startServer(t *testing.T, tc *tls.Config) *server.Server {
	t.Helper()
	opts := &server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true}
	if tc != nil {
		opts.TLS, opts.TLSConfig = true, tc
	}
	s, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(5 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s
}

// Connect's connections (plain TCP through package rawnet's dialer, TLS
// on top of it) carry a request and its reply.
func TestConnectRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tls   *tls.Config
		query string
	}{
		{"plain", nil, ""},
		{"tls", &tls.Config{Certificates: []tls.Certificate{testcert.SelfSigned(t)}, MinVersion: tls.VersionTLS12}, "?tls=insecure"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, tc.tls)
			cfg, err := Parse(fmt.Sprintf("nats://127.0.0.1:%d%s", s.Addr().(*net.TCPAddr).Port, tc.query), func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			nc, err := Connect(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			if got := nc.TLSRequired(); got != (tc.tls != nil) {
				t.Errorf("TLSRequired = %v", got)
			}
			sub, err := nc.SubscribeSync("echo")
			if err != nil {
				t.Fatal(err)
			}
			payload := make([]byte, 64<<10) // several reads and writes
			for i := range payload {
				payload[i] = byte(i)
			}
			for range 20 {
				if err := nc.Publish("echo", payload); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 20 {
				m, err := sub.NextMsg(5 * time.Second)
				if err != nil {
					t.Fatalf("message %d: %v", i, err)
				}
				if len(m.Data) != len(payload) || m.Data[len(payload)-1] != payload[len(payload)-1] {
					t.Fatalf("message %d: %d bytes, not what was sent", i, len(m.Data))
				}
			}
		})
	}
}
