package k6stream

import (
	"strconv"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/csvlog"
)

// Iterations and checks, as k6 streams them: per iteration one
// iterations point (1) and one iteration_duration point (ms), per check
// one checks point (1 passed, 0 failed) tagged with the check's name.

var (
	_ csvlog.EventEncoder = (*jsonEncoder)(nil)
	_ csvlog.EventEncoder = (*csvEncoder)(nil)
)

// checkNamer names the check of id (0: an unnamed check, "").
type checkNamer func(metrics.ID) string

func registryCheckNamer(reg *metrics.Registry) checkNamer {
	return func(id metrics.ID) string {
		if id == 0 || reg == nil || int(id) >= reg.Len() {
			return ""
		}
		n, _ := metrics.CheckName(reg.Def(id).Name)
		return n
	}
}

// AppendIteration implements csvlog.EventEncoder.
func (e *jsonEncoder) AppendIteration(b []byte, at time.Time, d time.Duration, _ bool) []byte {
	tags := e.eventTags(nil, "")
	b = e.appendPoint(b, at, metrics.Iterations, 1, tags)
	return e.appendPoint(b, at, metrics.IterationDuration, msOf(d), tags)
}

// AppendCheck implements csvlog.EventEncoder.
func (e *jsonEncoder) AppendCheck(b []byte, at time.Time, id metrics.ID, ok bool) []byte {
	v := 0.0
	if ok {
		v = 1
	}
	return e.appendPoint(b, at, metrics.Checks, v, e.eventTags(nil, e.cfg.checkName(id)))
}

func (e *jsonEncoder) eventTags(b []byte, check string) []byte {
	b = append(b, '{')
	if check != "" {
		b = append(b, `"check":`...)
		b = appendJSONString(b, check)
		b = append(b, ',')
	}
	b = append(b, `"group":"","scenario":`...)
	b = appendJSONString(b, e.scenario)
	for _, kv := range e.extra {
		b = append(b, ',')
		b = appendJSONString(b, kv[0])
		b = append(b, ':')
		b = appendJSONString(b, kv[1])
	}
	return append(b, '}')
}

func (e *jsonEncoder) appendPoint(b []byte, at time.Time, metric string, v float64, tags []byte) []byte {
	b = append(b, `{"type":"Point","data":{"time":"`...)
	b = at.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","value":`...)
	b = appendFloat(b, v)
	b = append(b, `,"tags":`...)
	b = append(b, tags...)
	b = append(b, `},"metric":"`...)
	b = append(b, metric...)
	return append(b, "\"}\n"...)
}

// AppendIteration implements csvlog.EventEncoder.
func (e *csvEncoder) AppendIteration(b []byte, at time.Time, d time.Duration, _ bool) []byte {
	b = e.appendEvent(b, at, metrics.Iterations, 1, "")
	return e.appendEvent(b, at, metrics.IterationDuration, msOf(d), "")
}

// AppendCheck implements csvlog.EventEncoder.
func (e *csvEncoder) AppendCheck(b []byte, at time.Time, id metrics.ID, ok bool) []byte {
	v := 0.0
	if ok {
		v = 1
	}
	return e.appendEvent(b, at, metrics.Checks, v, e.cfg.checkName(id))
}

func (e *csvEncoder) appendEvent(b []byte, at time.Time, metric string, v float64, check string) []byte {
	b = append(b, metric...)
	b = append(b, ',')
	b = strconv.AppendInt(b, at.Unix(), 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, v, 'f', 6, 64)
	b = append(b, ',')
	b = appendCSV(b, check)
	b = append(b, ",,,,,,,,"...) // error, error_code, expected_response, group, method, name, proto, scenario
	b = appendCSV(b, e.scenario)
	b = append(b, ",,,,,,"...) // service, status, subproto, tls_version, url, extra_tags
	b = append(b, e.extra...)
	return append(b, ",\n"...)
}
