package monitor

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// ProbeTimeout is how long Probe waits for one endpoint: 3s.
const ProbeTimeout = 3 * time.Second

// Probe takes one reading of every endpoint source before a run: a source
// that cannot be reached, answers with a status other than 200, or serves
// none of the metric families the monitor reads (an HTML page, a server
// that is not an exporter) is an error naming the source's display form.
// Failures after the start are counted per source and noted in the
// summary (see Counts). client nil means a default client; each endpoint
// gets at most ProbeTimeout.
func Probe(ctx context.Context, specs []Spec, client *http.Client) error {
	if client == nil {
		client = &http.Client{}
	}
	for _, sp := range specs {
		if sp.Kind != KindHTTP {
			continue
		}
		s := newScraper(sp, client)
		pctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
		fams, err := s.page(pctx)
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("--monitor %s=%s: %v", sp.ID, sp.Display, err)
		}
		if len(fams) == 0 {
			want := "node_cpu_seconds_total (node_exporter), namedprocess_namegroup_* (process-exporter) or process_cpu_seconds_total"
			if len(sp.Metrics) > 0 {
				want = strings.Join(sp.Metrics, ", ")
			}
			return fmt.Errorf("--monitor %s=%s: serves no metric the monitor reads in Prometheus text format (want %s)", sp.ID, sp.Display, want)
		}
	}
	return nil
}
