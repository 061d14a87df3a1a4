package monitor

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
)

// groupFamilies are process-exporter's per-group families.
var groupFamilies = []string{"namedprocess_namegroup_cpu_seconds_total", "namedprocess_namegroup_memory_bytes", "namedprocess_namegroup_num_threads"}

// keepGroups drops from fams the process-exporter groups not in keep
// (nil keeps all), so that only the groups the user named are summed.
func keepGroups(fams map[string]*dto.MetricFamily, keep map[string]bool) {
	if keep == nil {
		return
	}
	for _, name := range groupFamilies {
		f := fams[name]
		if f == nil {
			continue
		}
		ms := f.Metric[:0]
		for _, m := range f.Metric {
			if keep[label(m, "groupname")] {
				ms = append(ms, m)
			}
		}
		f.Metric = ms
	}
}

// groupsOf lists the process-exporter groups of fams, sorted.
func groupsOf(fams map[string]*dto.MetricFamily) []string {
	seen := map[string]bool{}
	for _, name := range groupFamilies {
		for _, m := range metricsOf(fams, name) {
			seen[label(m, "groupname")] = true
		}
	}
	out := make([]string, 0, len(seen))
	for g := range seen {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// checkGroups reads the page of a source that names process-exporter
// groups once, before the run: naming groups the page does not have (none
// of them matching) is bad input. An endpoint that does not answer is not:
// its failures are counted during the run.
func checkGroups(ctx context.Context, sp Spec, client *http.Client) error {
	if len(sp.Groups) == 0 || sp.Kind != KindHTTP {
		return nil
	}
	s := newScraper(sp, client)
	s.groups = nil // see every group
	fams, err := s.page(ctx)
	if err != nil {
		return nil
	}
	have := groupsOf(fams)
	for _, g := range have {
		for _, w := range sp.Groups {
			if g == w {
				return nil
			}
		}
	}
	page := "it has none (is it process-exporter?)"
	if len(have) > 0 {
		page = "it has " + strings.Join(have, ", ")
	}
	return fmt.Errorf("--monitor %s=%s: no process-exporter group named %s: %s", sp.ID, sp.Display, strings.Join(sp.Groups, ", "), page)
}

// groupCheckTimeout bounds the page read of checkGroups.
const groupCheckTimeout = 5 * time.Second
