package nebula

import (
	"io"
	"strconv"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

var errEOF = io.EOF

// maxMsg bounds the server message kept in an error, in bytes.
const maxMsg = 200

// ServerError is a statement or handshake graphd answered with a non-zero
// ErrorCode. Its message is "NAME(code): message", e.g.
// "E_EXECUTION_ERROR(-1005): Storage Error: ...", the form the error
// breakdown and the CSV's errorMsg column show.
type ServerError struct {
	Code graphsvc.ErrorCode
	Msg  string
}

func (e *ServerError) Error() string {
	s := CodeName(e.Code)
	if e.Msg != "" {
		m := e.Msg
		if len(m) > maxMsg {
			m = m[:maxMsg] + "…"
		}
		s += ": " + m
	}
	return s
}

// CodeName names an ErrorCode with its number, "E_SYNTAX_ERROR(-1004)";
// a code the IDL does not list is "ErrorCode(-1234)".
func CodeName(c graphsvc.ErrorCode) string {
	n := c.String()
	if n == "<UNSET>" {
		n = "ErrorCode"
	}
	return n + "(" + strconv.FormatInt(int64(c), 10) + ")"
}
