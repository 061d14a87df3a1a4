package httpdrv

import (
	"fmt"
	"strings"
)

// The checks below follow RFC 9110: a method and a header name are tokens
// (§5.6.2: 1*tchar), a header value holds no CR, LF or NUL (§5.5), and a
// request target (RFC 9112 §3.2) holds no whitespace or control
// character. A request that fails one is never sent, so what goes on the
// wire is what the user typed: no header smuggled in after a CR LF, no
// second request split off a path.

// isTchar reports whether c is an RFC 9110 tchar.
func isTchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// badToken returns the index of the first byte of s that is not a tchar,
// -1 when s is a token (and not empty).
func badToken(s string) int {
	for i := 0; i < len(s); i++ {
		if !isTchar(s[i]) {
			return i
		}
	}
	return -1
}

// CheckMethod returns an error unless m is an RFC 9110 token, e.g. GET or
// PROPFIND.
func CheckMethod(m string) error {
	if m == "" {
		return fmt.Errorf("method is empty")
	}
	if i := badToken(m); i >= 0 {
		return fmt.Errorf("method %q: %q is not allowed in a method (RFC 9110 token: letters, digits and !#$%%&'*+-.^_`|~)", m, m[i])
	}
	return nil
}

// CheckHeader returns an error unless line is "Name: value" with Name an
// RFC 9110 token and a value without CR, LF or NUL.
func CheckHeader(line string) error {
	name, value, ok := strings.Cut(line, ":")
	if !ok {
		return fmt.Errorf("header %q: want 'Name: value'", line)
	}
	if name == "" {
		return fmt.Errorf("header %q: the name is empty", line)
	}
	if i := badToken(name); i >= 0 {
		return fmt.Errorf("header %q: %q is not allowed in a header name (RFC 9110 token)", line, name[i])
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("header %q: the value holds a line break or NUL (one header per --header)", line)
	}
	return nil
}

// CheckTarget returns an error when the request target (path and query)
// holds whitespace or a control character, which would end the request
// line early (and could split off a second request).
func CheckTarget(path string) error {
	for i := 0; i < len(path); i++ {
		if c := path[i]; c <= ' ' || c == 0x7f {
			return fmt.Errorf("path %q: %q is not allowed in a request target (percent-encode it, e.g. %%20 for a space)", path, c)
		}
	}
	return nil
}

// CheckStatus returns an error unless code is an HTTP status code, 100 to
// 599 (RFC 9110 §15).
func CheckStatus(code int) error {
	if code < 100 || code > 599 {
		return fmt.Errorf("status %d: HTTP status codes are 100 to 599", code)
	}
	return nil
}

// checkOp applies the checks to one operation before it is sent.
func checkOp(op *Ext, path string) error {
	if err := CheckTarget(path); err != nil {
		return err
	}
	if op == nil {
		return nil
	}
	if op.Method != "" {
		if err := CheckMethod(op.Method); err != nil {
			return err
		}
	}
	for _, h := range op.Headers {
		if err := CheckHeader(h); err != nil {
			return err
		}
	}
	return nil
}
