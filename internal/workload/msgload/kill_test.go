package msgload

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestParseKill(t *testing.T) {
	for _, tc := range []struct {
		spec, which string
		want        KillSpec
		err         string
	}{
		{"", "", KillSpec{}, ""},
		{"5s", "", KillSpec{At: 5 * time.Second, Which: "leader"}, ""},
		{"5s,restart 10s", "follower", KillSpec{At: 5 * time.Second, Restart: 10 * time.Second, Which: "follower"}, ""},
		{" 2s , restart=1m ", "N2", KillSpec{At: 2 * time.Second, Restart: time.Minute, Which: "n2"}, ""},
		{"0s", "", KillSpec{}, "want AT"},
		{"five", "", KillSpec{}, "want AT"},
		{"5s,10s", "", KillSpec{}, "restart AFTER"},
		{"5s,restart -1s", "", KillSpec{}, "restart AFTER"},
		{"5s", "boss", KillSpec{}, "--kill-which"},
		{"5s", "n0", KillSpec{}, "--kill-which"},
	} {
		t.Run(tc.spec+"/"+tc.which, func(t *testing.T) {
			got, err := ParseKill(tc.spec, tc.which)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func FuzzParseKill(f *testing.F) {
	for _, s := range []string{"5s", "5s,restart 10s", "1m,restart=2s", ",", "5s,restart", "-1s"} {
		f.Add(s, "leader")
	}
	f.Fuzz(func(t *testing.T, spec, which string) {
		k, err := ParseKill(spec, which)
		if err != nil {
			return
		}
		if k.Enabled() && (k.At <= 0 || k.Restart < 0 || k.Which == "") {
			t.Fatalf("%q %q: accepted %+v", spec, which, k)
		}
		if k.Enabled() {
			again, err := ParseKill(k.String(), k.Which)
			if err != nil || again != k {
				t.Fatalf("%q: round trip %q gives %+v, %v", spec, k.String(), again, err)
			}
		}
	})
}

// fakeCluster records kills and restarts.
type fakeCluster struct {
	mu     sync.Mutex
	n      int
	leader int
	log    []string
	fail   error
}

func (c *fakeCluster) Nodes() int                             { return c.n }
func (c *fakeCluster) NodeName(i int) string                  { return fmt.Sprintf("n%d", i+1) }
func (c *fakeCluster) Leader(context.Context, int) int        { return c.leader }
func (c *fakeCluster) Restart(_ context.Context, i int) error { c.add("restart", i); return nil }
func (c *fakeCluster) Kill(i int) error {
	c.add("kill", i)
	return c.fail
}
func (c *fakeCluster) add(what string, i int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, fmt.Sprintf("%s n%d", what, i+1))
}

func TestRunKill(t *testing.T) {
	for _, tc := range []struct {
		name string
		k    KillSpec
		fail error
		d    time.Duration
		log  string
		note string
	}{
		{"leader kill and restart", KillSpec{At: 2 * time.Second, Restart: 3 * time.Second, Which: "leader"}, nil, time.Minute,
			"kill n2,restart n2", "fault: node n2 (leader) killed with SIGKILL at 2s, restarted at 5s (healthy 0s later)"},
		{"follower, no restart", KillSpec{At: time.Second, Which: "follower"}, nil, time.Minute,
			"kill n3", "fault: node n3 (follower) killed with SIGKILL at 1s, not restarted"},
		{"node asked for", KillSpec{At: time.Second, Which: "n1"}, nil, time.Minute,
			"kill n1", "fault: node n1 (asked for) killed with SIGKILL at 1s, not restarted"},
		{"ended first", KillSpec{At: 10 * time.Second, Which: "leader"}, nil, 5 * time.Second,
			"", "--kill-node 10s: the scenario ended before the kill"},
		{"restart after the end", KillSpec{At: time.Second, Restart: 10 * time.Second, Which: "leader"}, nil, 5 * time.Second,
			"kill n2,restart n2", "fault: node n2 (leader) killed with SIGKILL at 1s, restarted at 5s (healthy 0s later)"},
		{"kill fails", KillSpec{At: time.Second, Which: "leader"}, errors.New("not running"), time.Minute,
			"kill n2", "fault: node n2 (leader) killed with SIGKILL at 1s, not restarted; not running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				t0 := time.Now()
				now := func() time.Duration { return time.Since(t0) }
				c := &fakeCluster{n: 3, leader: 1, fail: tc.fail}
				ctx, cancel := context.WithTimeout(context.Background(), tc.d)
				defer cancel()
				ev := RunKill(ctx, tc.k, c, 0, now, 0)
				if got := strings.Join(c.log, ","); got != tc.log {
					t.Errorf("actions %q, want %q", got, tc.log)
				}
				if got := ev.Describe(tc.k); got != tc.note {
					t.Errorf("note %q\nwant %q", got, tc.note)
				}
			})
		})
	}
}
