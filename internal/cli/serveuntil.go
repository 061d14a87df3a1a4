package cli

import (
	"context"
	"time"
)

// serveUntil blocks a `serve` command until ctx ends (Ctrl+C) or, when
// d > 0, d has passed.
func serveUntil(ctx context.Context, d time.Duration) {
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	<-ctx.Done()
}
