package influx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ProbeTimeout bounds Probe: 3s.
const ProbeTimeout = 3 * time.Second

// Probe asks the server of an --out influxdb=URL value for GET /ping
// before the run. InfluxDB 1.x and 2.x answer 204 with an
// X-Influxdb-Version header, 3.x 200 with its version: anything else (a
// dead port, an HTML page, another server) is an error naming the URL
// without credentials. Failures after the start are counted and noted in
// the summary, as before.
func Probe(ctx context.Context, raw string) error {
	ep, err := ParseURL(raw)
	if err != nil {
		return err
	}
	u, err := url.Parse(ep.write)
	if err != nil {
		return err
	}
	u.Path, u.RawQuery = "/ping", ""
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // "dial tcp …: connection refused", without the URL
		}
		return fmt.Errorf("InfluxDB at %s unreachable: %v", ep.display, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	switch {
	case resp.Header.Get("X-Influxdb-Version") != "" || resp.Header.Get("X-Influxdb-Build") != "":
		return nil
	case resp.StatusCode == http.StatusNoContent:
		return nil
	case resp.StatusCode == http.StatusOK && strings.Contains(string(body), `"version"`):
		return nil
	}
	return fmt.Errorf("%s does not answer as InfluxDB (GET /ping: %s, no X-Influxdb-Version header)", ep.display, resp.Status)
}
