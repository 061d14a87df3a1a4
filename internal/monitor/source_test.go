package monitor

import (
	"strings"
	"testing"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in      string
		want    Spec
		wantErr string
	}{
		{in: "node=http://10.0.0.5:9100/metrics", want: Spec{ID: "node", Kind: KindHTTP, URL: "http://10.0.0.5:9100/metrics", Display: "http://10.0.0.5:9100/metrics"}},
		{in: "node=http://10.0.0.5:9100", want: Spec{ID: "node", Kind: KindHTTP, URL: "http://10.0.0.5:9100/metrics", Display: "http://10.0.0.5:9100/metrics"}},
		{in: "graphd=http://h:19669/stats?format=prometheus#num_queries,num_slow_queries",
			want: Spec{ID: "graphd", Kind: KindHTTP, URL: "http://h:19669/stats?format=prometheus", Display: "http://h:19669/stats", Metrics: []string{"num_queries", "num_slow_queries"}}},
		{in: "node=http://u:secret@h:9100/metrics?token=abc", want: Spec{ID: "node", Kind: KindHTTP, URL: "http://u:secret@h:9100/metrics?token=abc", Display: "http://h:9100/metrics"}},
		{in: "pid=1234", want: Spec{ID: "pid:1234", Kind: KindPID, PID: 1234, Display: "/proc/1234"}},
		{in: "pid=nats-server", want: Spec{ID: "pid:nats-server", Kind: KindPID, ProcName: "nats-server", Display: "processes named nats-server"}},
		{in: "node", wantErr: "want NAME=URL"},
		{in: "node=", wantErr: "want NAME=URL"},
		{in: "node=10.0.0.5:9100", wantErr: "http:// or https://"},
		{in: "node=ftp://h/x", wantErr: "http:// or https://"},
		{in: "pid=0", wantErr: "PID ≥ 1"},
		{in: "pid=-3", wantErr: "PID ≥ 1"},
		{in: "pid=/usr/bin/x", wantErr: "process name"},
		{in: "9x=http://h/", wantErr: "name"},
		{in: "x=ftp://u:secret@h/", wantErr: "ftp://h/"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseSpec(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Errorf("error shows a credential: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != tc.want.ID || got.Kind != tc.want.Kind || got.URL != tc.want.URL || got.Display != tc.want.Display ||
				got.PID != tc.want.PID || got.ProcName != tc.want.ProcName || strings.Join(got.Metrics, ",") != strings.Join(tc.want.Metrics, ",") {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseSpecsUniqueIDs(t *testing.T) {
	got, err := ParseSpecs([]string{"node=http://h1:9100/metrics", "node=http://h2:9100/metrics", "graphd=http://h1:19669/stats"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range got {
		ids = append(ids, s.ID)
	}
	if strings.Join(ids, " ") != "node@h1:9100 node@h2:9100 graphd" {
		t.Errorf("ids %v", ids)
	}
	if _, err := ParseSpecs([]string{"node=http://h1:9100/metrics", "node=http://h1:9100/metrics"}); err == nil {
		t.Error("the same source twice was accepted")
	}
}

func TestParseNICSpeed(t *testing.T) {
	for in, want := range map[string]float64{"1G": 1.25e8, "10Gbit": 1.25e9, "25gbps": 3.125e9, "100M": 1.25e7, "1000Mbit/s": 1.25e8} {
		got, err := ParseNICSpeed(in)
		if err != nil || got != want {
			t.Errorf("%s: %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "fast", "-1G", "0", "100"} {
		if _, err := ParseNICSpeed(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}
