package influx

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// endpoint is where and how to write.
type endpoint struct {
	// write is the full write URL without credentials.
	write string
	// v2 selects the InfluxDB 2 API (token auth, org and bucket).
	v2 bool
	// user and pass are v1 credentials from the URL, sent as basic auth.
	user, pass string
	// display is the URL for messages: no credentials, no token.
	display string
	// db is the 1.x database and query its /query URL (CREATE DATABASE).
	db, query string
}

// ParseURL checks an --out influxdb=URL value. Accepted forms:
//
//	http://host:8086/DB                                   InfluxDB 1.x, database DB (k6's form)
//	http://host:8086?db=DB                                InfluxDB 1.x
//	http://user:pass@host:8086/DB                         1.x with basic auth
//	http://host:8086/api/v2/write?org=ORG&bucket=BUCKET   InfluxDB 2.x / 3.x (token in STAMPEDE_INFLUX_TOKEN)
//	http://host:8086?org=ORG&bucket=BUCKET                the same
//
// Extra query parameters (rp, consistency) are passed on.
func ParseURL(raw string) (endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return endpoint{}, fmt.Errorf("bad influxdb URL: %v", errors.Unwrap(err))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return endpoint{}, fmt.Errorf("influxdb URL %s: want http:// or https://, e.g. http://127.0.0.1:8086/k6", u.Redacted())
	}
	if u.Host == "" {
		return endpoint{}, fmt.Errorf("influxdb URL %s has no host", u.Redacted())
	}
	var ep endpoint
	if u.User != nil {
		ep.user = u.User.Username()
		ep.pass, _ = u.User.Password()
		u.User = nil
	}
	q := u.Query()
	path := strings.Trim(u.Path, "/")
	switch {
	case q.Get("bucket") != "" || path == "api/v2/write":
		if q.Get("bucket") == "" {
			return endpoint{}, fmt.Errorf("influxdb URL %s: the v2 API needs ?bucket= (and usually &org=)", u.Redacted())
		}
		ep.v2 = true
		u.Path = "/api/v2/write"
	case q.Get("db") != "":
		u.Path = "/write"
	case path == "write":
		return endpoint{}, fmt.Errorf("influxdb URL %s names no database: add ?db=NAME or use http://host:8086/NAME", u.Redacted())
	case path != "" && !strings.Contains(path, "/"):
		q.Set("db", path)
		u.Path = "/write"
	default:
		return endpoint{}, fmt.Errorf("influxdb URL %s names no database: use http://host:8086/DB or ?org=ORG&bucket=BUCKET for InfluxDB 2", u.Redacted())
	}
	for _, k := range []string{"u", "p", "token"} {
		if q.Has(k) {
			return endpoint{}, fmt.Errorf("influxdb URL: pass credentials as user:pass@host or in STAMPEDE_INFLUX_TOKEN, not as ?%s=", k)
		}
	}
	if !ep.v2 {
		ep.db = q.Get("db")
		qu := *u
		qu.Path, qu.RawQuery = strings.TrimSuffix(u.Path, "write")+"query", ""
		ep.query = qu.String()
	}
	q.Set("precision", "ns")
	u.RawQuery = q.Encode()
	ep.write = u.String()
	ep.display = u.String()
	return ep, nil
}
