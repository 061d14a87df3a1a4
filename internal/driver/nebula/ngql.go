package nebula

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// QuoteName quotes an identifier (space, tag, edge) with backquotes.
func QuoteName(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "") + "`"
}

// AppendString appends s (a string or its bytes) as an nGQL string
// literal: double quotes, with backslash, double quote and control
// characters escaped.
func AppendString[S string | []byte](dst []byte, s S) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// AppendLiteral appends v as an nGQL literal: integers as numbers,
// strings quoted, times as datetime("..."), booleans, nil as NULL.
func AppendLiteral(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "NULL"...), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int32:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case uint64:
		return strconv.AppendUint(dst, x, 10), nil
	case float64:
		return strconv.AppendFloat(dst, x, 'g', -1, 64), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case string:
		return AppendString(dst, x), nil
	case []byte:
		return AppendString(dst, string(x)), nil
	case time.Time:
		dst = append(dst, `datetime("`...)
		dst = x.UTC().AppendFormat(dst, "2006-01-02T15:04:05.000")
		return append(dst, `")`...), nil
	}
	return dst, fmt.Errorf("nebula: cannot send a %T as an nGQL literal", v)
}

// Render substitutes positional parameters $1, $2, ... in query with the
// literals of args (outside string literals and backquoted names), so
// that the statement sent is plain nGQL text as nebula-bench sends it.
// "$-" and "$$" (nGQL's pipe and destination references) and "$name"
// are left alone.
func Render(dst []byte, query string, args []any) ([]byte, error) {
	var quote byte
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' && i+1 < len(query) {
				dst = append(dst, c, query[i+1])
				i++
				continue
			}
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '$' && i+1 < len(query) && query[i+1] >= '1' && query[i+1] <= '9':
			j := i + 1
			for j < len(query) && query[j] >= '0' && query[j] <= '9' {
				j++
			}
			n, _ := strconv.Atoi(query[i+1 : j])
			if n > len(args) {
				return dst, fmt.Errorf("nebula: statement uses $%d but has %d parameters", n, len(args))
			}
			var err error
			if dst, err = AppendLiteral(dst, args[n-1]); err != nil {
				return dst, err
			}
			i = j - 1
			continue
		}
		dst = append(dst, c)
	}
	return dst, nil
}
