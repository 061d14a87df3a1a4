package kafka

import (
	"context"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

func TestConnectVersion(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	u, _ := url.Parse("kafka://" + strings.Join(c.ListenAddrs(), ","))
	cl, err := dial(t, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	v, err := Version(t.Context(), cl)
	if err != nil || v == "" {
		t.Errorf("Version = %q, %v", v, err)
	}
}

func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	u, _ := url.Parse("kafka://u:hunter2@" + addr + "?sasl=plain&dial_timeout=1s")
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	start := time.Now()
	cfg, err := ParseURL(u, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Connect(ctx, cfg)
	if err == nil {
		t.Fatal("want error")
	}
	if !strings.Contains(err.Error(), "no broker reachable") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("err = %v", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("took %v to fail", el)
	}
}
