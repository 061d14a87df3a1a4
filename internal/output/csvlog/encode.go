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
	sec   int64
	stamp []byte
	// The run offsets [lo, hi) of clock base are second sec (appendAt);
	// lo == hi when stamp came from a Time (append).
	base   time.Time
	lo, hi time.Duration
	// pre is stamp, query and their commas for the common row (appendAt:
	// no Op, answer or error), when preOK, for query preQ.
	pre        []byte
	preQ       string
	preOK      bool
	stmt       []byte
	query, err textCache
}

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

func (e *encoder) append(b []byte, r *reqlog.Record) []byte {
	if sec := r.Time.Unix(); sec != e.sec || e.stamp == nil {
		e.sec = sec
		e.stamp = strconv.AppendInt(e.stamp[:0], sec, 10)
		e.lo, e.hi, e.preOK = 0, 0, false
	}
	b = append(b, e.stamp...)
	return e.appendRest(b, r)
}

// appendAt is append for a record whose time is offset at of c: within
// the second of the last record, a comparison instead of converting.
func (e *encoder) appendAt(b []byte, r *reqlog.Record, c metrics.Clock, at time.Duration) []byte {
	if at < e.lo || at >= e.hi || c.Base() != e.base {
		t := c.Wall(at)
		e.sec, e.base = t.Unix(), c.Base()
		e.stamp = strconv.AppendInt(e.stamp[:0], e.sec, 10)
		e.lo = at - time.Duration(t.Nanosecond())
		e.hi = e.lo + time.Second
		e.preOK = false
	}
	if r.Op != nil || r.HasAnswer || r.Err != "" {
		b = append(b, e.stamp...)
		return e.appendRest(b, r)
	}
	// The common row: what appendRest writes, with stamp and query
	// copied at once and the constant columns as one.
	if !e.preOK || unsafe.StringData(r.Query) != unsafe.StringData(e.preQ) || len(r.Query) != len(e.preQ) {
		e.pre = append(append(e.pre[:0], e.stamp...), ',')
		e.pre = append(appendField(e.pre, r.Query), ',')
		e.preQ, e.preOK = r.Query, true
	}
	b = append(b, e.pre...)
	if r.Latency >= 0 {
		b = appendInt(b, int64(r.Latency/time.Microsecond))
	}
	b = append(b, ',')
	b = appendInt(b, int64(r.ResponseTime/time.Microsecond))
	if r.OK {
		b = append(b, ",true,"...)
	} else {
		b = append(b, ",false,"...)
	}
	b = appendInt(b, r.Rows)
	return append(b, ",,,\n"...)
}

// appendInt is strconv.AppendInt in base 10, inlined for one digit.
func appendInt(b []byte, v int64) []byte {
	if uint64(v) < 10 {
		return append(b, byte('0'+v))
	}
	return appendIntCall(b, v)
}

// appendIntCall is appendInt's call, kept out of line so that appendInt
// inlines.
//
//go:noinline
func appendIntCall(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

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
