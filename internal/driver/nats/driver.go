package nats

import (
	"context"
	"fmt"
	"net/url"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stampede-bench/stampede/internal/driver"
)

// natsDriver publishes Op.Body to subject Op.Query through JetStream and
// waits for the PubAck: the generic driver for custom scenarios.
type natsDriver struct {
	nc *nats.Conn
	js jetstream.JetStream
}

// Open connects to a nats:// target.
func Open(_ context.Context, u *url.URL, opts driver.Options) (driver.Driver, error) {
	c, err := ParseURL(u, opts.Getenv)
	if err != nil {
		return nil, err
	}
	nc, err := Connect(c)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	return &natsDriver{nc: nc, js: js}, nil
}

func (d *natsDriver) Conn(context.Context) (driver.Conn, error) { return conn{js: d.js}, nil }

func (d *natsDriver) Close() error { d.nc.Close(); return nil }

// Version is the connected server's version.
func (d *natsDriver) Version(context.Context) (string, error) {
	return d.nc.ConnectedServerVersion(), nil
}

var (
	_ driver.Driver    = (*natsDriver)(nil)
	_ driver.Versioner = (*natsDriver)(nil)
)

type conn struct{ js jetstream.JetStream }

func (c conn) Do(ctx context.Context, op *driver.Op) driver.Result {
	if _, err := c.js.Publish(ctx, op.Query, op.Body); err != nil {
		return driver.Result{Err: Wrap(err)}
	}
	return driver.Result{Rows: 1}
}

func (conn) Close() error { return nil }

// Register adds the nats:// opener to r.
func Register(r *driver.Registry) { r.Register(Open, Scheme) }
