package prom

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stampede-bench/stampede/internal/monitor"
)

func TestTargetCollector(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)
	c := NewTargetCollector(func() []monitor.Sample {
		return []monitor.Sample{
			{Time: at, Source: "node", Values: map[string]float64{monitor.CPUUtil: 0.5, monitor.NetRx + ":eth0": 1e6}},
			{Time: at, Source: "process", Values: map[string]float64{monitor.ProcCPU + ":nebula-graphd": 1.5, "num_queries.sum": 3}},
		}
	})
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	n, err := testutil.GatherAndCount(reg)
	if err != nil || n != 4 {
		t.Fatalf("%d series, %v", n, err)
	}
	want := `
# HELP stampede_target_cpu_util Target resource figure cpu_util of a --monitor source (see docs/monitoring.md).
# TYPE stampede_target_cpu_util gauge
stampede_target_cpu_util{source="node"} 0.5 1767225601000
# HELP stampede_target_net_rx_bytes_per_second Target resource figure net_rx_bytes_per_second of a --monitor source (see docs/monitoring.md).
# TYPE stampede_target_net_rx_bytes_per_second gauge
stampede_target_net_rx_bytes_per_second{device="eth0",source="node"} 1e+06 1767225601000
# HELP stampede_target_proc_cpu_cores Target resource figure proc_cpu_cores of a --monitor source (see docs/monitoring.md).
# TYPE stampede_target_proc_cpu_cores gauge
stampede_target_proc_cpu_cores{group="nebula-graphd",source="process"} 1.5 1767225601000
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "stampede_target_cpu_util", "stampede_target_net_rx_bytes_per_second", "stampede_target_proc_cpu_cores"); err != nil {
		t.Error(err)
	}
	if got := TargetMetricName("num_queries.sum"); got != "stampede_target_num_queries_sum" {
		t.Errorf("name %q", got)
	}
}
