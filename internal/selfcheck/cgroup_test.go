package selfcheck

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestCgroupCPUDirs(t *testing.T) {
	for _, c := range []struct {
		name, cgroup string
		want         []string
	}{
		{"v2", "0::/user.slice/run.scope\n", []string{"/sys/fs/cgroup/user.slice/run.scope", "/sys/fs/cgroup/user.slice", "/sys/fs/cgroup"}},
		{"v2 root", "0::/\n", []string{"/sys/fs/cgroup"}},
		{"v1 cpu,cpuacct", "4:memory:/x\n3:cpu,cpuacct:/docker/abc\n0::/\n", []string{"/sys/fs/cgroup/cpu,cpuacct/docker/abc", "/sys/fs/cgroup/cpu,cpuacct/docker", "/sys/fs/cgroup/cpu,cpuacct"}},
		{"v1 cpu alone, hybrid", "2:cpuacct:/\n1:cpu:/\n0::/\n", []string{"/sys/fs/cgroup/cpu"}},
		{"nothing", "garbage\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := cgroupCPUDirs([]byte(c.cgroup), "/sys/fs/cgroup"); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestParseCPUStat(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     Throttle
		ok       bool
	}{
		{"v2", "usage_usec 100\nnr_periods 50\nnr_throttled 40\nthrottled_usec 750000\n", Throttle{50, 40, 750 * time.Millisecond}, true},
		{"v1", "nr_periods 10\nnr_throttled 2\nthrottled_time 3000000\n", Throttle{10, 2, 3 * time.Millisecond}, true},
		{"no cpu controller", "usage_usec 100\nuser_usec 50\n", Throttle{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := parseCPUStat([]byte(c.in))
			if got != c.want || ok != c.ok {
				t.Errorf("got %+v, %v; want %+v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

// The level whose quota binds decides; a level that restarted its
// counters gives nothing.
func TestThrottledOf(t *testing.T) {
	prev := map[string]Throttle{"/a/b": {100, 0, 0}, "/a": {100, 10, time.Second}, "/reset": {100, 90, 9 * time.Second}}
	cur := map[string]Throttle{"/a/b": {110, 1, 10 * time.Millisecond}, "/a": {110, 18, 1750 * time.Millisecond}, "/reset": {5, 1, 0}}
	periods, held := throttledOf(prev, cur, time.Second)
	if periods < 0.8-1e-9 || periods > 0.8+1e-9 || held < 0.75-1e-9 || held > 0.75+1e-9 {
		t.Errorf("throttledOf = %v, %v; want 0.8, 0.75", periods, held)
	}
	if p, h := throttledOf(nil, cur, time.Second); p != 0 || h != 0 {
		t.Errorf("without a previous reading: %v, %v", p, h)
	}
}

// A generator held to a quarter of a core shows 12% CPU of its 2 cores,
// yet it is the limit: its throttled seconds are busy seconds, and the
// warning names the quota.
func TestThrottledGeneratorSaturated(t *testing.T) {
	start := time.Unix(1000, 0)
	r := &Report{Cores: 2, Threshold: Threshold}
	for i := 1; i <= 10; i++ {
		r.Samples = append(r.Samples, Sample{Time: start.Add(time.Duration(i) * time.Second), CPU: 0.125, Throttled: 0.95, Held: 0.7})
	}
	st := r.Window(time.Time{}, time.Time{})
	if !st.Saturated() || st.Throttled != 10 || st.Busy != 10 {
		t.Errorf("Window = %+v, want 10 throttled busy seconds", st)
	}
	w := r.Warning(time.Time{}, time.Time{})
	if !strings.Contains(w, "throttled by its cgroup's CPU quota in 10 of 10 s") || !strings.Contains(w, "limited by the client") {
		t.Errorf("warning %q", w)
	}
	r.Samples[0].Throttled = 0 // one unthrottled second changes nothing
	if !r.Window(time.Time{}, time.Time{}).Saturated() {
		t.Error("9 of 10 throttled seconds: not saturated")
	}
}

// readThrottle reads every level that has a cpu.stat, through the file
// reader it is given.
func TestReadThrottle(t *testing.T) {
	files := map[string]string{
		"/proc/self/cgroup":                     "0::/gen.slice/run\n",
		"/sys/fs/cgroup/gen.slice/run/cpu.stat": "nr_periods 4\nnr_throttled 3\nthrottled_usec 20\n",
		"/sys/fs/cgroup/gen.slice/cpu.stat":     "nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n",
	}
	got := readThrottle(func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("no such file")
	})
	want := map[string]Throttle{"/sys/fs/cgroup/gen.slice/run": {4, 3, 20 * time.Microsecond}, "/sys/fs/cgroup/gen.slice": {}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
