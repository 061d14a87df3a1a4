package datagen

// The simulated period, as in LDBC: persons join between 2010-01-01 and
// 2013-01-01 (UTC); all times are Unix milliseconds.
const (
	startMs int64 = 1262304000000 // 2010-01-01T00:00:00Z
	endMs   int64 = 1356998400000 // 2013-01-01T00:00:00Z
	dayMs   int64 = 86_400_000

	// Persons are born between 1980-01-01 and 1990-12-31 (days since epoch).
	birthFirstDay int64 = 3652 // 1980-01-01
	birthLastDay  int64 = 7669 // 1990-12-31

	// Insert persons (substitution parameters) join in the 180 days after
	// the simulated period.
	insertSpanMs = 180 * dayMs

	// idBuckets and idSeqBits compose person ids as LDBC's
	// SN.composeId does: bucket = 256*(creation-start)/end, where end is
	// the end of the period in Unix ms, so buckets run 0..17, and
	// id = bucket<<41 | seq. seq is the person's generation index; it is
	// unique, so ids are, and they are never negative.
	idBuckets = 256
	idSeqBits = 41
)

// personID composes the id of the person with generation index seq who
// joined at createdMs.
func personID(seq int64, createdMs int64) int64 {
	bucket := idBuckets * (createdMs - startMs) / endMs
	return bucket<<idSeqBits | seq
}
