package influx

import (
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/monitor"
)

func TestObserveTarget(t *testing.T) {
	r := newReceiver(t)
	o, err := New(Config{URL: r.srv.URL + "/k6", Tags: map[string]string{"segment": "1/2"}})
	if err != nil {
		t.Fatal(err)
	}
	at := t0.Add(1500 * time.Millisecond)
	o.ObserveTarget(monitor.Sample{Time: at, Source: "node", DT: 1, Values: map[string]float64{
		monitor.CPUUtil: 0.42, monitor.NetRx + ":eth0": 1.2e7,
	}})
	o.ObserveTarget(monitor.Sample{Time: at, Source: "process", DT: 1, Values: map[string]float64{monitor.ProcCPU + ":nebula-graphd": 1.5}})
	o.ObserveTarget(monitor.Sample{Time: at, Source: "node", Err: "connection refused"}) // nothing to write
	st := o.Close()
	if st.Lines != 3 || st.Written != 3 || st.Dropped() != 0 {
		t.Fatalf("stats %+v", st)
	}
	got := map[string]line{}
	r.mu.Lock()
	for _, l := range r.lines {
		got[l.measurement] = l
	}
	r.mu.Unlock()
	cpu, net, proc := got["target_cpu_util"], got["target_net_rx_bytes_per_second"], got["target_proc_cpu_cores"]
	if cpu.fields["value"] != 0.42 || cpu.tags["source"] != "node" || cpu.tags["segment"] != "1/2" || !cpu.t.Equal(t0.Add(time.Second)) {
		t.Errorf("cpu line %+v", cpu)
	}
	if net.fields["value"] != 1.2e7 || net.tags["device"] != "eth0" {
		t.Errorf("net line %+v", net)
	}
	if proc.fields["value"] != 1.5 || proc.tags["group"] != "nebula-graphd" || proc.tags["source"] != "process" {
		t.Errorf("process line %+v", proc)
	}
}
