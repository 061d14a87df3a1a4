package csvlog

import (
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// Header is the first line of every log: nebula-bench's columns in its
// order, with stampede's two between rows and errorMsg, so that errorMsg
// stays the last column (NebulaGraph-Bench users count errors with
// awk -F ',' '{print $NF}'; its k6 plugin added firstRecord the same way):
// label (a short name of the request when query holds the statement as
// sent) and answer (the answer where rows alone does not show it, such as
// the length of a shortest path, -1 for none). HeaderFor names the
// statement column otherwise.
const Header = "timestamp,query,latency,responseTime,isSucceed,rows,label,answer,errorMsg\n"

// Statement column names (Options.StatementColumn).
const (
	// StatementQuery is the default name of the statement column.
	StatementQuery = "query"
	// StatementNGQL is its name for NebulaGraph targets, as nebula-bench
	// and its k6 plugin write it.
	StatementNGQL = "nGQL"
)

// HeaderFor is Header with the statement column named col ("" means
// StatementQuery).
func HeaderFor(col string) string {
	if col == "" || col == StatementQuery {
		return Header
	}
	return "timestamp," + col + Header[len("timestamp,query"):]
}

// encoder appends records as CSV lines (with their newline): timestamp
// in Unix seconds; query: r.Op's statement with its arguments bound
// (Statement.AppendStatement) when r.Op is set, else r.Query; latency and
// responseTime in integer µs (latency empty when negative, i.e. unknown);
// isSucceed true/false; rows; label (r.Query when r.Op is set, else
// empty); answer (empty unless r.HasAnswer); errorMsg last. Text fields
// are quoted per RFC 4180 when they need it. It caches the formatted
// timestamp of the last record (a VU logs many requests per second),
// whether the query, label and error texts of the last record needed
// quoting (a VU logs the same few texts over and over), and a reused
// buffer for rendering statements.
type encoder struct {
	// stamp is the timestamp of the rows of the second that begins at
	// nsLo (Unix nanoseconds): [nsLo, nsLo+1 s).
	stamp []byte
	nsLo  int64
	// pre[:npre] is stamp, the query at preQ of length preN and their
	// commas: the start of a common row (Writer.WritePlain); preN is −1
	// when there is none. lastQ and lastN are the query setPre saw last
	// (whose prefix may not have fitted).
	pre         [preSize]byte
	npre        int
	preQ, lastQ *byte
	preN, lastN int
	stmt        []byte
	query, err  textCache
}

// newEncoder returns an encoder with no stamp and no prefix.
func newEncoder() encoder { return encoder{preN: -1, lastN: -1} }

// textCache remembers whether the last text appended needed quoting. A Go
// string is immutable, and the cache holds a pointer to its bytes (which
// keeps them alive), so the same pointer and length mean the same text.
type textCache struct {
	p     *byte
	n     int
	quote bool
}

// append is appendField with the quoting decision cached.
func (c *textCache) append(b []byte, s string) []byte {
	if s == "" {
		return b
	}
	if p := unsafe.StringData(s); p != c.p || len(s) != c.n {
		c.p, c.n, c.quote = p, len(s), needsQuotes(s)
	}
	if !c.quote {
		return append(b, s...)
	}
	return appendQuoted(b, s)
}

// append appends r, whose time is r.Time.
func (e *encoder) append(b []byte, r *reqlog.Record) []byte {
	return e.appendNs(b, r, r.Time.UnixNano())
}

// appendAt appends r, whose time is offset at of c.
func (e *encoder) appendAt(b []byte, r *reqlog.Record, c metrics.Clock, at time.Duration) []byte {
	return e.appendNs(b, r, c.Wall(at).UnixNano())
}

// appendNs appends r, whose time is ns (Unix nanoseconds), after making
// its second and, for a row without Op, its query current: the common
// rows that follow are Writer.WritePlain's.
func (e *encoder) appendNs(b []byte, r *reqlog.Record, ns int64) []byte {
	if uint64(ns-e.nsLo) >= uint64(time.Second) || e.stamp == nil {
		e.setStamp(ns)
	}
	if r.Op == nil && (unsafe.StringData(r.Query) != e.lastQ || len(r.Query) != e.lastN) {
		e.setPre(r.Query)
	}
	return e.appendRest(append(b, e.stamp...), r)
}

// setStamp makes the second of ns (Unix nanoseconds) that of the rows
// that follow.
func (e *encoder) setStamp(ns int64) {
	sec := ns / 1e9
	if ns%1e9 < 0 {
		sec-- // rounded down, as time.Time.Unix
	}
	e.nsLo = sec * 1e9
	e.stamp = strconv.AppendInt(e.stamp[:0], sec, 10)
	e.preN, e.lastN = -1, -1
}

// setPre makes pre the prefix of the common rows of query q, when it
// fits and q needs no quotes (appendRest writes the others).
func (e *encoder) setPre(q string) {
	e.lastQ, e.lastN = unsafe.StringData(q), len(q)
	e.preN = -1
	if len(e.stamp)+len(q)+2 > preSize || needsQuotes(q) {
		return
	}
	e.npre = copy(e.pre[:], e.stamp)
	e.pre[e.npre] = ','
	e.npre += 1 + copy(e.pre[e.npre+1:], q)
	e.pre[e.npre] = ','
	e.npre++
	e.preQ, e.preN = e.lastQ, e.lastN
}

// appendRest appends everything after the timestamp.
func (e *encoder) appendRest(b []byte, r *reqlog.Record) []byte {
	b = append(b, ',')
	if r.Op != nil {
		// rendered anew into e.stmt each time: not cached
		e.stmt = r.Op.AppendStatement(e.stmt[:0])
		b = appendField(b, unsafe.String(unsafe.SliceData(e.stmt), len(e.stmt)))
	} else {
		b = e.query.append(b, r.Query)
	}
	b = append(b, ',')
	if r.Latency >= 0 {
		b = strconv.AppendInt(b, int64(r.Latency/time.Microsecond), 10)
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.ResponseTime/time.Microsecond), 10)
	if r.OK {
		b = append(b, ",true,"...)
	} else {
		b = append(b, ",false,"...)
	}
	b = strconv.AppendInt(b, r.Rows, 10)
	b = append(b, ',')
	if r.Op != nil {
		b = e.query.append(b, r.Query)
	}
	b = append(b, ',')
	if r.HasAnswer {
		b = strconv.AppendInt(b, r.Answer, 10)
	}
	b = append(b, ',')
	b = e.err.append(b, r.Err)
	return append(b, '\n')
}

// appendField appends s, quoted when it holds a comma, a double quote or a
// line break (RFC 4180); quotes inside are doubled.
func appendField(b []byte, s string) []byte {
	if !needsQuotes(s) {
		return append(b, s...)
	}
	return appendQuoted(b, s)
}

// appendQuoted appends s quoted, its quotes doubled.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		b = append(b, s[:i+1]...)
		b = append(b, '"')
		s = s[i+1:]
	}
	b = append(b, s...)
	return append(b, '"')
}

// needsQuotes scans with strings.IndexByte (vectorized), which keeps long
// statements such as batched inserts cheap.
func needsQuotes(s string) bool {
	if s == "" {
		return false
	}
	return strings.IndexByte(s, ',') >= 0 || strings.IndexByte(s, '"') >= 0 ||
		strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\r') >= 0
}
