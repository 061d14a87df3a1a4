package run

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// runTags are the plan's tags plus testid, which defaults to the name of
// the run's result directory (dir), so that runs are told apart in Grafana.
func runTags(tags map[string]string, dir string) map[string]string {
	m := map[string]string{}
	for k, v := range tags {
		m[k] = v
	}
	if m["testid"] == "" {
		m["testid"] = testID(dir)
	}
	return m
}

// testID names a run by its result directory: "20261130-171400", or
// "20261130-171400-run-02" for a repeated run.
func testID(dir string) string {
	base := filepath.Base(filepath.Clean(dir))
	if strings.HasPrefix(base, "run-") {
		return filepath.Base(filepath.Dir(filepath.Clean(dir))) + "-" + base
	}
	return base
}

// targetOrigin is scheme://host of an http(s) target ("" otherwise), for
// the url tag of k6 streams. It never holds credentials.
func targetOrigin(target string) string {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return fmt.Sprintf("%s://%s", u.Scheme, u.Host)
}

// targetScheme is the scheme of target, lower case ("" without a target
// or a scheme).
func targetScheme(target string) string {
	scheme, _, ok := strings.Cut(target, "://")
	if !ok {
		return ""
	}
	return strings.ToLower(scheme)
}
