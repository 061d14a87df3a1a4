package promrw

import (
	"context"
	"net/http"
	"time"

	"github.com/klauspost/compress/snappy"
)

// ProbeTimeout bounds Probe: 3s.
const ProbeTimeout = 3 * time.Second

// Probe pushes an empty WriteRequest (remote write 1.0, snappy-compressed
// protobuf of no series) to an --out prometheus-rw=URL endpoint before the
// run: a receiver answers 2xx. A dead port, a Prometheus without
// --web.enable-remote-write-receiver (404) or a server that is no
// receiver is an error naming the URL without credentials. Failures after
// the start are counted and noted in the summary, as before.
func Probe(ctx context.Context, raw string) error {
	if err := CheckURL(raw); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	o := &Output{cfg: Config{URL: raw, Timeout: ProbeTimeout}, display: redact(raw), client: &http.Client{Timeout: ProbeTimeout}}
	return o.postCtx(ctx, snappy.Encode(nil, nil))
}
