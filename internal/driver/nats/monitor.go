package nats

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// JSZ is the part of a server's /jsz monitoring answer that stampede
// reads back: the JetStream settings in effect and the meta group.
type JSZ struct {
	ServerID string `json:"server_id"`
	Config   struct {
		StoreDir string `json:"store_dir"`
		// SyncInterval is how often the server fsyncs in the background
		// (ns; 0 when not set, the server default of 2 minutes).
		SyncInterval time.Duration `json:"sync_interval"`
		// SyncAlways is sync_interval: always — fsync on every write.
		SyncAlways bool  `json:"sync_always"`
		MaxStore   int64 `json:"max_storage"`
	} `json:"config"`
	Meta *struct {
		Name   string `json:"name"`
		Leader string `json:"leader"`
		Size   int    `json:"cluster_size"`
		// Replicas are the other meta peers as the leader sees them.
		Replicas []struct {
			Name    string `json:"name"`
			Current bool   `json:"current"`
			Offline bool   `json:"offline"`
		} `json:"replicas"`
	} `json:"meta_cluster"`
}

// FsyncSetting describes the fsync policy in effect.
func (j *JSZ) FsyncSetting() string {
	switch {
	case j.Config.SyncAlways:
		return "sync_interval=always (fsync every write)"
	case j.Config.SyncInterval > 0:
		return "sync_interval=" + j.Config.SyncInterval.String() + " (background fsync)"
	}
	return "sync_interval=server default (background fsync every 2m)"
}

// ReadJSZ fetches /jsz from a monitoring endpoint such as
// http://127.0.0.1:8222.
func ReadJSZ(ctx context.Context, monitor string) (*JSZ, error) {
	var j JSZ
	if err := getJSON(ctx, strings.TrimRight(monitor, "/")+"/jsz", &j); err != nil {
		return nil, err
	}
	return &j, nil
}

// Healthy asks a monitoring endpoint's /healthz whether the server is
// ready, JetStream included.
func Healthy(ctx context.Context, monitor string) error {
	var h struct {
		Status string `json:"status"`
		Error  string `json:"error"`
	}
	if err := getJSON(ctx, strings.TrimRight(monitor, "/")+"/healthz", &h); err != nil {
		return err
	}
	if h.Status != "ok" {
		return fmt.Errorf("not healthy: %s", h.Error)
	}
	return nil
}

var monitorClient = &http.Client{Timeout: 5 * time.Second}

func getJSON(ctx context.Context, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := monitorClient.Do(req)
	if err != nil {
		return fmt.Errorf("nats monitor: %w", err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return fmt.Errorf("nats monitor %s: HTTP %d: %w", url, resp.StatusCode, err)
	}
	return nil
}
