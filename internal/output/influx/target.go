package influx

import (
	"sort"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/monitor"
)

// ObserveTarget queues one sample of a --monitor source, like Observe: one
// line per figure, in k6's manner (measurement per metric, field value):
//
//	target_cpu_util,source=node value=0.42
//	target_net_rx_bytes_per_second,device=eth0,source=node value=1.2e+07
//	target_proc_cpu_cores,group=nebula-graphd,source=proc value=1.5
//
// Failed readings write nothing (they are counted in the summary).
func (o *Output) ObserveTarget(s monitor.Sample) {
	if s.Err != "" || len(s.Values) == 0 {
		return
	}
	it := &item{t: s.Time, target: &s}
	n := int64(it.lines())
	o.lines.Add(n)
	select {
	case o.in <- it:
	default:
		o.queueFull.Add(n)
	}
}

// addTarget encodes a target sample.
func (e *encoder) addTarget(s *monitor.Sample) {
	t := s.Time.Truncate(time.Second)
	keys := make([]string, 0, len(s.Values))
	for k := range s.Values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	src := sanitize(s.Source)
	for _, k := range keys {
		v := s.Values[k]
		name, dev, hasDev := strings.Cut(k, ":")
		e.enc.StartLine("target_" + name)
		e.buf = append(e.buf[:0], e.tags...)
		if hasDev {
			l := "device"
			if strings.HasPrefix(name, "proc_") {
				l = "group"
			}
			e.buf = append(e.buf, tag{l, sanitize(dev)})
		}
		e.buf = append(e.buf, tag{"source", src})
		sort.Slice(e.buf, func(i, j int) bool { return e.buf[i].k < e.buf[j].k })
		for _, tg := range e.buf {
			e.enc.AddTag(tg.k, tg.v)
		}
		e.floatField("value", v)
		e.enc.EndLine(t)
		if e.enc.Err() != nil {
			e.failures++
			e.enc.ClearErr()
		}
	}
}
