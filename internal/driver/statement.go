package driver

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"time"
)

// AppendStatement appends op's statement as it was sent to dst: op.Query
// with each placeholder replaced by its argument as a literal, so that a
// per-request log shows what the target answered. Placeholders are $N and
// ?N (argument N, 1-based) and a bare ? (the next argument); text inside
// single-quoted strings, double-quoted identifiers and -- comments is
// copied as is. Literals: integers and floats in decimal, strings quoted
// with ' (doubled inside), time.Time as a quoted RFC 3339 instant with
// nanoseconds, []byte as X'hex', nil as NULL, booleans as TRUE/FALSE,
// anything else as its quoted fmt.Sprint. A placeholder without an
// argument is copied as is. A query without arguments (nGQL, Cypher sent
// as text) is appended unchanged. It allocates only to grow dst, except
// for argument types other than those listed.
func (op *Op) AppendStatement(dst []byte) []byte {
	q := op.Query
	if len(op.Args) == 0 {
		return append(dst, q...)
	}
	next := 0 // argument of a bare ?
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) && q[j] != c {
				j++
			}
			j = min(j+1, len(q))
			dst = append(dst, q[i:j]...)
			i = j
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := i
			for j < len(q) && q[j] != '\n' {
				j++
			}
			dst = append(dst, q[i:j]...)
			i = j
		case c == '$' || c == '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			n := -1
			switch {
			case j > i+1:
				if v, err := strconv.Atoi(q[i+1 : j]); err == nil {
					n = v - 1
				}
			case c == '?':
				n = next
				next++
			}
			if n < 0 || n >= len(op.Args) {
				dst = append(dst, q[i:j]...)
			} else {
				dst = appendLiteral(dst, op.Args[n])
			}
			i = j
		default: // copy up to the next character that may start something
			j := i + 1
			for j < len(q) && !special[q[j]] {
				j++
			}
			dst = append(dst, q[i:j]...)
			i = j
		}
	}
	return dst
}

// special marks the bytes AppendStatement looks at.
var special = [256]bool{'\'': true, '"': true, '-': true, '$': true, '?': true}

// appendLiteral appends v as a SQL literal.
func appendLiteral(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "NULL"...)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case int32:
		return strconv.AppendInt(dst, int64(x), 10)
	case uint64:
		return strconv.AppendUint(dst, x, 10)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return appendQuoted(dst, strconv.FormatFloat(x, 'g', -1, 64))
		}
		return strconv.AppendFloat(dst, x, 'g', -1, 64)
	case bool:
		if x {
			return append(dst, "TRUE"...)
		}
		return append(dst, "FALSE"...)
	case string:
		return appendQuoted(dst, x)
	case []byte:
		dst = append(dst, "X'"...)
		dst = hex.AppendEncode(dst, x)
		return append(dst, '\'')
	case time.Time:
		dst = append(dst, '\'')
		dst = x.AppendFormat(dst, time.RFC3339Nano)
		return append(dst, '\'')
	}
	return appendQuoted(dst, fmt.Sprint(v))
}

// appendQuoted appends s in single quotes, doubling the quotes inside.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			dst = append(dst, '\'')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '\'')
}
