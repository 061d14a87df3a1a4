package influx

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// createDatabase creates the 1.x database when it is missing, as k6 does
// (CREATE DATABASE is a no-op for an existing one). A failure (no admin
// right, an InfluxDB 2 behind a 1.x URL) is warned about once; writes then
// say what is wrong.
func (o *Output) createDatabase() {
	if o.ep.v2 || o.ep.db == "" {
		return
	}
	ctx, cancel := context.WithTimeout(o.ctx, o.cfg.Timeout)
	defer cancel()
	form := url.Values{"q": {`CREATE DATABASE "` + strings.ReplaceAll(o.ep.db, `"`, `\"`) + `"`}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.ep.query, strings.NewReader(form.Encode()))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if o.cfg.Token != "" {
		req.Header.Set("Authorization", "Token "+o.cfg.Token)
	} else if o.ep.user != "" {
		req.SetBasicAuth(o.ep.user, o.ep.pass)
	}
	resp, err := o.client.Do(req)
	if err != nil {
		return // unreachable: the first write says so, once
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	if resp.StatusCode/100 != 2 || strings.Contains(string(msg), `"error"`) {
		o.warnCreate(resp.Status + " " + strings.Join(strings.Fields(string(msg)), " "))
		return
	}
	o.created = true
}

func (o *Output) warnCreate(why string) {
	if o.cfg.Warn != nil {
		fmt.Fprintf(o.cfg.Warn, "stampede: influxdb: could not create database %q at %s: %s\n", o.ep.db, o.ep.display, why)
	}
}
