package lab

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseMountinfo(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       CgroupMounts
	}{
		{"separate", "35 25 0:30 / /sys/fs/cgroup/cpu rw,relatime shared:10 - cgroup cgroup rw,cpu\n" +
			"36 25 0:31 / /sys/fs/cgroup/cpuacct rw,relatime shared:11 - cgroup cgroup rw,cpuacct\n",
			CgroupMounts{CPU: "/sys/fs/cgroup/cpu", CPUAcct: "/sys/fs/cgroup/cpuacct"}},
		{"co-mounted", "35 25 0:30 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n",
			CgroupMounts{CPU: "/sys/fs/cgroup/cpu,cpuacct", CPUAcct: "/sys/fs/cgroup/cpu,cpuacct"}},
		{"cgroup2 only", "30 25 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", CgroupMounts{}},
		{"escaped", `35 25 0:30 / /mnt/my\040cg rw - cgroup cgroup rw,cpu` + "\n", CgroupMounts{CPU: "/mnt/my cg"}},
		{"cpuset is not cpu", "35 25 0:30 / /c rw - cgroup cgroup rw,cpuset\n", CgroupMounts{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseMountinfo(strings.NewReader(tc.text))
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestShapeArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    Link
		want []string
	}{
		{"unshaped", Link{}, nil},
		{"rate", Link{Rate: 20e6}, []string{"qdisc add dev eth0 root handle 10: tbf rate 20000000bit burst 10000 latency 50ms"}},
		{"slow rate keeps two frames of burst", Link{Rate: 1e6}, []string{"qdisc add dev eth0 root handle 10: tbf rate 1000000bit burst 3028 latency 50ms"}},
		{"delay and rate", Link{Rate: 1e7, Delay: time.Millisecond, Jitter: 200 * time.Microsecond, Loss: 0.001}, []string{
			"qdisc add dev eth0 root handle 1: netem limit 10000 delay 1000us 200us loss 0.1%",
			"qdisc add dev eth0 parent 1:1 handle 10: tbf rate 10000000bit burst 5000 latency 50ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, a := range shapeArgs("eth0", tc.l) {
				got = append(got, strings.Join(a, " "))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestParseCPUStat(t *testing.T) {
	p, th, tt := parseCPUStat("nr_periods 120\nnr_throttled 7\nthrottled_time 35000000\nnr_bursts 0\n")
	if p != 120 || th != 7 || tt != 35*time.Millisecond {
		t.Fatalf("got %d %d %v", p, th, tt)
	}
}

func TestQuota(t *testing.T) {
	for cores, want := range map[float64]int64{0: -1, 0.25: 25000, 2: 200000, 0.001: 1000} {
		if got := quotaUS(cores); got != want {
			t.Errorf("quotaUS(%v) = %d, want %d", cores, got, want)
		}
	}
}

func TestParseLinkStats(t *testing.T) {
	s, err := parseLinkStatsBytes([]byte(`[{"ifname":"eth0","stats64":{"rx":{"bytes":90,"packets":1,"dropped":2},"tx":{"bytes":300,"packets":4,"dropped":0}}}]`))
	if err != nil || s.RxBytes != 90 || s.RxPackets != 1 || s.TxBytes != 300 || s.TxPackets != 4 || s.RxDropped != 2 {
		t.Fatalf("got %+v, %v", s, err)
	}
	if _, err := parseLinkStatsBytes([]byte(`[]`)); err == nil {
		t.Fatal("no interface: want an error")
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Spec
	}{
		{"empty", Spec{}},
		{"bad name", Spec{Hosts: []HostSpec{{Name: "N-1"}}}},
		{"duplicate", Spec{Hosts: []HostSpec{{Name: "a"}, {Name: "a"}}}},
		{"tiny quota", Spec{Hosts: []HostSpec{{Name: "a", CPU: 0.001}}}},
		{"loss", Spec{Hosts: []HostSpec{{Name: "a", Link: Link{Loss: 2}}}}},
		{"bad id", Spec{ID: "A B", Hosts: []HostSpec{{Name: "a"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := validate(tc.s); err == nil {
				t.Fatal("want an error")
			}
		})
	}
}
