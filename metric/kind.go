package metric

// Kind is the type of a metric, following k6.
type Kind uint8

const (
	// KindTrend is a distribution recorded into an HDR histogram.
	KindTrend Kind = iota + 1
	// KindCounter is a monotonically increasing sum.
	KindCounter
	// KindRate is a fraction of passes (checks); recorded as pass/fail counts.
	KindRate
	// KindGauge is a last value with min/max (vus, vus_max).
	KindGauge
)

// String is k6's name of the kind: trend, counter, rate or gauge.
func (k Kind) String() string {
	switch k {
	case KindTrend:
		return "trend"
	case KindCounter:
		return "counter"
	case KindRate:
		return "rate"
	case KindGauge:
		return "gauge"
	}
	return "unknown"
}

// WithTag returns k6's name of the submetric of name restricted to tag
// key:value: "NAME{key:value}", or "NAME{a:b,key:value}" when name is
// already a submetric.
func WithTag(name, key, value string) string {
	if n := len(name); n > 0 && name[n-1] == '}' {
		return name[:n-1] + "," + key + ":" + value + "}"
	}
	return name + "{" + key + ":" + value + "}"
}
