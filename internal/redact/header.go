package redact

import "strings"

// IsSecretHeader reports whether an HTTP header's value is a credential
// that must never be written out: Authorization, Proxy-Authorization,
// Cookie, Set-Cookie, X-Api-Key and other names containing "key",
// "token", "secret", "password", "auth" or "session", and every name in
// marked (compared without case).
func IsSecretHeader(name string, marked ...string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, m := range marked {
		if strings.EqualFold(strings.TrimSpace(m), n) {
			return true
		}
	}
	if n == "cookie" || n == "set-cookie" {
		return true
	}
	for _, s := range []string{"auth", "key", "token", "secret", "password", "passwd", "session", "credential"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// Header returns a "Name: value" header line with the value replaced
// by xxxxx when the header is secret (see IsSecretHeader).
func Header(line string, marked ...string) string {
	name, _, ok := strings.Cut(line, ":")
	if !ok || !IsSecretHeader(name, marked...) {
		return line
	}
	return name + ": xxxxx"
}
