// Package secret tells which values of a command line, its flags and its
// tags are credentials, and hides them (as xxxxx, or a URL's password as
// redact.URL does) wherever a run is recorded: options.json, the
// summary, k8s manifests.
package secret

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/redact"
)

// RedactArgs hides credentials in target URLs, secret flags, the
// values of secret headers (--header 'Authorization: ...', and names
// marked with --secret-header) and of secret tags (--tag apitoken=…, and
// names marked with --secret-tag).
func RedactArgs(args []string) []string {
	marked := markedHeaders(args)
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if strings.Contains(a, "://") {
			if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
				out[i] = k + "=" + redact.URL(v)
			} else {
				out[i] = redact.URL(a)
			}
		}
		if i > 0 && strings.HasPrefix(args[i-1], "--") && !strings.Contains(args[i-1], "=") && IsSecretFlag(args[i-1]) && !namesSecret(args[i-1]) {
			out[i] = "xxxxx"
		}
		if k, _, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "--") && IsSecretFlag(k) && !namesSecret(k) {
			out[i] = k + "=xxxxx"
		}
		if i > 0 && args[i-1] == "--header" {
			out[i] = redact.Header(a, marked...)
		}
		if v, ok := strings.CutPrefix(a, "--header="); ok {
			out[i] = "--header=" + redact.Header(v, marked...)
		}
	}
	return RedactTagArgs(out) // --tag apitoken=…: also moved out of k8s manifests
}

// markedHeaders returns the header names given with --secret-header.
func markedHeaders(args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--secret-header" && i+1 < len(args) {
			out = append(out, args[i+1])
		}
		if v, ok := strings.CutPrefix(a, "--secret-header="); ok {
			out = append(out, v)
		}
	}
	return out
}

// IsSecretTag reports whether a tag's value is a credential: its name
// looks like one (token, key, secret, password, auth, session, credential:
// the rule of secret headers) or was given with --secret-tag.
func IsSecretTag(name string, marked []string) bool {
	return redact.IsSecretHeader(name, marked...)
}

// RedactTags returns tags with the value of every secret tag replaced by
// xxxxx: the value then reaches no output (streams, summary, report,
// Prometheus, InfluxDB), only the name does.
func RedactTags(tags map[string]string, marked []string) map[string]string {
	if len(tags) == 0 {
		return tags
	}
	out := make(map[string]string, len(tags))
	for k, v := range tags {
		if IsSecretTag(k, marked) {
			v = "xxxxx"
		}
		out[k] = v
	}
	return out
}

// markedTags returns the tag names given with --secret-tag in args.
func markedTags(args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--secret-tag" && i+1 < len(args) {
			out = append(out, args[i+1])
		}
		if v, ok := strings.CutPrefix(a, "--secret-tag="); ok {
			out = append(out, v)
		}
	}
	return out
}

// RedactTagArgs hides the values of secret tags (--tag apitoken=…) in
// recorded arguments.
func RedactTagArgs(args []string) []string {
	marked := markedTags(args)
	out := append([]string(nil), args...)
	hide := func(kv string) string {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || !IsSecretTag(strings.TrimSpace(k), marked) {
			return kv
		}
		return k + "=xxxxx"
	}
	for i, a := range out {
		switch {
		case i > 0 && args[i-1] == "--tag":
			out[i] = hide(a)
		case strings.HasPrefix(a, "--tag="):
			out[i] = "--tag=" + hide(a[len("--tag="):])
		}
	}
	return out
}

// namesSecret reports whether a flag's value is a name or a path rather
// than a secret, although the flag's name says "secret": --secret-header
// X-Custom names a header; the value is the header's, not X-Custom.
func namesSecret(flag string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(flag, "-"), "=")
	switch name {
	case "secret-header", "secret-tag", "secret-file":
		return true
	}
	return false
}

// RedactEnvArgs hides the values of -e/--env KEY=VALUE in recorded
// arguments: they often carry credentials (k6 users pass tokens so).
func RedactEnvArgs(args []string) []string {
	out := append([]string(nil), args...)
	hide := func(kv string) string {
		k, _, _ := strings.Cut(kv, "=")
		return k + "=xxxxx"
	}
	for i, a := range out {
		switch {
		case i > 0 && (args[i-1] == "-e" || args[i-1] == "--env"):
			out[i] = hide(a)
		case strings.HasPrefix(a, "--env="):
			out[i] = "--env=" + hide(a[len("--env="):])
		case strings.HasPrefix(a, "-e") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			out[i] = "-e" + hide(strings.TrimPrefix(a[2:], "="))
		}
	}
	return out
}

// IsSecretFlag reports flags whose values must never be written out.
func IsSecretFlag(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "password") || strings.Contains(n, "secret") || strings.Contains(n, "token")
}

// FlagValues returns the values of the flags of fs that the user set and
// names holds, for records: secret flags (IsSecretFlag) are left out, and
// the values of secret headers in a --header list are hidden
// (redact.Header, with the names marked by --secret-header).
func FlagValues(fs *pflag.FlagSet, names map[string]bool, markedHeaders []string) map[string]string {
	out := map[string]string{}
	fs.Visit(func(fl *pflag.Flag) {
		if names[fl.Name] && !IsSecretFlag(fl.Name) {
			out[fl.Name] = fl.Value.String()
			if sv, ok := fl.Value.(pflag.SliceValue); ok && fl.Name == "header" {
				var hs []string
				for _, h := range sv.GetSlice() {
					hs = append(hs, redact.Header(h, markedHeaders...))
				}
				out[fl.Name] = "[" + strings.Join(hs, ",") + "]"
			}
		}
	})
	return out
}
