package kafka

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

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
