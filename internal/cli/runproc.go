package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/stampede-bench/stampede/internal/driver"
)

// redactArgs hides credentials in target URLs, secret flags, the
// values of secret headers (--header 'Authorization: ...', and names
// marked with --secret-header) and of secret tags (--tag apitoken=…, and
// names marked with --secret-tag).
func redactArgs(args []string) []string {
	marked := markedHeaders(args)
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if strings.Contains(a, "://") {
			if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
				out[i] = k + "=" + driver.Redact(v)
			} else {
				out[i] = driver.Redact(a)
			}
		}
		if i > 0 && strings.HasPrefix(args[i-1], "--") && !strings.Contains(args[i-1], "=") && isSecretFlag(args[i-1]) && !namesSecret(args[i-1]) {
			out[i] = "xxxxx"
		}
		if k, _, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "--") && isSecretFlag(k) && !namesSecret(k) {
			out[i] = k + "=xxxxx"
		}
		if i > 0 && args[i-1] == "--header" {
			out[i] = driver.RedactHeader(a, marked...)
		}
		if v, ok := strings.CutPrefix(a, "--header="); ok {
			out[i] = "--header=" + driver.RedactHeader(v, marked...)
		}
	}
	return redactTagArgs(out) // --tag apitoken=…: also moved out of k8s manifests
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

// isTTY reports whether w is a terminal.
func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// startSelfProfile writes stampede's own CPU profile to path until stop.
func startSelfProfile(path string) (stop func(), err error) {
	out, err := os.Create(path)
	if err != nil {
		return nil, usagef("--self-profile: %v", err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return nil, fmt.Errorf("--self-profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); out.Close() }, nil
}
