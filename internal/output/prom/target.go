package prom

import (
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/stampede-bench/stampede/internal/monitor"
)

// TargetCollector exposes the latest sample of each --monitor source:
//
//	stampede_target_<figure>{source[,device|group]}   e.g. stampede_target_cpu_util{source="node"}
//
// with the figures of package monitor (cpu_util, cpu_busy_cores,
// net_rx_bytes_per_second{device="eth0"}, proc_cpu_cores, ...). The set of
// series follows the sources, so the collector is unchecked.
type TargetCollector struct {
	latest func() []monitor.Sample
}

var _ prometheus.Collector = (*TargetCollector)(nil)

// NewTargetCollector reads the samples to expose from latest on each scrape.
func NewTargetCollector(latest func() []monitor.Sample) *TargetCollector {
	return &TargetCollector{latest: latest}
}

// Describe sends nothing: the collector is unchecked.
func (c *TargetCollector) Describe(chan<- *prometheus.Desc) {}

// Collect sends one gauge per figure of each source's latest sample.
func (c *TargetCollector) Collect(ch chan<- prometheus.Metric) {
	for _, s := range c.latest() {
		for k, v := range s.Values {
			name, dev, hasDev := strings.Cut(k, ":")
			labels := []string{"source"}
			values := []string{s.Source}
			if hasDev {
				l := "device"
				if strings.HasPrefix(name, "proc_") {
					l = "group"
				}
				labels, values = append(labels, l), append(values, dev)
			}
			d := prometheus.NewDesc(TargetMetricName(name), "Target resource figure "+name+" of a --monitor source (see docs/monitoring.md).", labels, nil)
			m, err := prometheus.NewConstMetric(d, prometheus.GaugeValue, v, values...)
			if err != nil {
				continue
			}
			ch <- prometheus.NewMetricWithTimestamp(s.Time, m)
		}
	}
}

// TargetMetricName is the Prometheus name of a monitor figure:
// stampede_target_ + the figure with characters outside [a-zA-Z0-9_]
// replaced by _.
func TargetMetricName(figure string) string {
	b := []byte("stampede_target_" + figure)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}
