package kafka

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/internal/driver"
)

// Driver produces to a Kafka-protocol cluster through one shared franz-go
// client, so that concurrent Conns batch together. It is safe for
// concurrent use.
type Driver struct {
	cfg Config
	cl  *kgo.Client
}

var (
	_ driver.Driver    = (*Driver)(nil)
	_ driver.Versioner = (*Driver)(nil)
	_ driver.Opener    = Open
)

// Open is the driver.Opener for kafka:// targets: it connects and checks
// that at least one broker answers.
func Open(ctx context.Context, target *url.URL, opts driver.Options) (driver.Driver, error) {
	cfg, err := ParseURL(target, opts.Getenv)
	if err != nil {
		return nil, err
	}
	var extra []kgo.Opt
	if opts.Timeout > 0 {
		// franz-go refuses delivery timeouts under a second.
		extra = append(extra, kgo.RecordDeliveryTimeout(max(opts.Timeout, time.Second)))
	}
	cl, err := Connect(ctx, cfg, extra...)
	if err != nil {
		return nil, err
	}
	return &Driver{cfg: cfg, cl: cl}, nil
}

// Connect creates a client for cfg plus extra options and pings the
// cluster, so that an unreachable target fails here with one clear line.
func Connect(ctx context.Context, cfg Config, extra ...kgo.Opt) (*kgo.Client, error) {
	cl, err := kgo.NewClient(append(cfg.ClientOpts(), extra...)...)
	if err != nil {
		return nil, fmt.Errorf("kafka %s: %w", cfg, err)
	}
	if err := Ping(ctx, cl, cfg); err != nil {
		cl.Close()
		return nil, err
	}
	return cl, nil
}

// Ping checks that a broker of cfg answers within the dial timeout.
func Ping(ctx context.Context, cl *kgo.Client, cfg Config) error {
	pctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout+5*time.Second)
	defer cancel()
	if err := cl.Ping(pctx); err != nil {
		return fmt.Errorf("kafka %s: no broker reachable: %s", cfg, ErrorMessage(err))
	}
	return nil
}

// Client is the shared franz-go client.
func (d *Driver) Client() *kgo.Client { return d.cl }

// Config is the parsed target.
func (d *Driver) Config() Config { return d.cfg }

// Conn returns a connection view of the shared client.
func (d *Driver) Conn(context.Context) (driver.Conn, error) { return conn{d.cl}, nil }

// Close closes the client, waiting for buffered records.
func (d *Driver) Close() error {
	d.cl.Close()
	return nil
}

// Version guesses the broker version from its ApiVersions answer, e.g.
// "v3.7".
func (d *Driver) Version(ctx context.Context) (string, error) {
	return Version(ctx, d.cl)
}

// Version guesses the cluster's Kafka version from the first broker's
// ApiVersions response.
func Version(ctx context.Context, cl *kgo.Client) (string, error) {
	vs, err := kadm.NewClient(cl).ApiVersions(ctx)
	if err != nil {
		return "", err
	}
	for _, v := range vs.Sorted() {
		if v.Err == nil {
			return v.VersionGuess(), nil
		}
	}
	return "", fmt.Errorf("no broker answered ApiVersions")
}

// conn produces Op.Body to topic Op.Query and waits for the broker's
// acknowledgement. Rows is 1 on success.
type conn struct{ cl *kgo.Client }

func (c conn) Do(ctx context.Context, op *driver.Op) driver.Result {
	r := &kgo.Record{Topic: op.Query, Value: op.Body}
	if err := c.cl.ProduceSync(ctx, r).FirstErr(); err != nil {
		return driver.Result{Err: errorf(err)}
	}
	return driver.Result{Rows: 1}
}

func (conn) Close() error { return nil }

// Error is a produce or fetch failure whose message is the stable
// ErrorMessage form; Unwrap gives the original.
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

func errorf(err error) error { return &Error{Msg: ErrorMessage(err), Err: err} }

// Wrap returns err with its stable message (nil stays nil).
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	return errorf(err)
}

// Register adds the kafka:// opener to r.
func Register(r *driver.Registry) { r.Register(Open, Scheme) }
