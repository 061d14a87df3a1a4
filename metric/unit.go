package metric

// Unit says how a metric's integer values are to be read.
type Unit uint8

const (
	// UnitNone is a plain number (rows, messages).
	UnitNone Unit = iota
	// UnitMicros is time in integer microseconds; shown in ms like k6.
	UnitMicros
	// UnitBytes is a size in bytes.
	UnitBytes
)

func (u Unit) String() string {
	switch u {
	case UnitMicros:
		return "time"
	case UnitBytes:
		return "data"
	}
	return "default"
}
