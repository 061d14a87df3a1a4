package k6js

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/usage"
)

// esbuild's CommonJS form of an import: var import_http = __toESM(require("k6/http"));
var importRe = regexp.MustCompile(`(?:var|let|const)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:__toESM\()?require\("([^"]+)"\)`)

// checkImports refuses, before the run, a script that uses an export of a
// k6 module that stampede does not implement (e.g. http.asyncRequest), or
// a module it does not know (remote modules, k6/ws, k6/browser, ...).
func checkImports(s *Script) error {
	for _, code := range s.sources() {
		for _, m := range importRe.FindAllStringSubmatch(code, -1) {
			local, mod := m[1], m[2]
			if strings.HasPrefix(mod, ".") || strings.HasPrefix(mod, "/") {
				continue
			}
			exports, ok := k6Exports[mod]
			if !ok {
				return usage.Errorf("%s: module %q is not supported by stampede (supported: %s, local files)", s.Path, mod, strings.Join(moduleNames(), ", "))
			}
			use := regexp.MustCompile(`\b` + regexp.QuoteMeta(local) + `\.(?:default\.)?([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))?`)
			for _, u := range use.FindAllStringSubmatch(code, -1) {
				name, member := u[1], u[2]
				if name == "default" {
					continue
				}
				if !slices.Contains(exports, name) {
					return usage.Errorf("%s: %s.%s is not supported by stampede (it implements %s: %s)", s.Path, mod, name, mod, strings.Join(exports, ", "))
				}
				if members, ok := k6Members[mod+"."+name]; ok && member != "" && !slices.Contains(members, member) {
					return usage.Errorf("%s: %s %s.%s is not supported by stampede (it implements %s.%s: %s)", s.Path, mod, name, member, name, member, strings.Join(members, ", "))
				}
			}
		}
	}
	return nil
}

func moduleNames() []string {
	out := make([]string, 0, len(k6Exports))
	for k := range k6Exports {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkRe finds calls of check in esbuild's output: (0, import_k6.check)(
// or check( after a named import.
var checkRe = regexp.MustCompile(`\bcheck\)?\(`)

// checkNames returns the names of the checks a script makes with literal
// keys (check(res, {'status is 200': ...})), so that each gets its own
// rate in the summary; checks named at run time are counted in checks only.
func checkNames(s *Script) []string {
	seen := map[string]bool{}
	for _, code := range s.sources() {
		for _, loc := range checkRe.FindAllStringIndex(code, -1) {
			for _, k := range objectKeysOfSecondArg(code[loc[1]:]) {
				seen[k] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// objectKeysOfSecondArg reads the call arguments starting at src (just
// after the opening parenthesis) and returns the literal keys of the
// second argument when it is an object literal.
func objectKeysOfSecondArg(src string) []string {
	i, depth := 0, 0
	// Skip the first argument.
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = skipString(src, i)
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				return nil
			}
			depth--
		case c == ',' && depth == 0:
			i++
			goto second
		}
		i++
	}
	return nil
second:
	for i < len(src) && strings.IndexByte(" \t\r\n", src[i]) >= 0 {
		i++
	}
	if i >= len(src) || src[i] != '{' {
		return nil
	}
	i++
	var keys []string
	depth = 0
	expectKey := true
	for i < len(src) {
		c := src[i]
		switch {
		case strings.IndexByte(" \t\r\n", c) >= 0:
			i++
			continue
		case c == '"' || c == '\'' || c == '`':
			j := skipString(src, i)
			if depth == 0 && expectKey && c != '`' && j-1 > i && src[j-1] == c {
				if k, err := strconv.Unquote(`"` + strings.ReplaceAll(src[i+1:j-1], `"`, `\"`) + `"`); err == nil {
					keys = append(keys, k)
				}
				expectKey = false
			}
			i = j
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				return keys
			}
			depth--
		case c == ',' && depth == 0:
			expectKey = true
			i++
			continue
		default:
			if depth == 0 && expectKey && (c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				j := i
				for j < len(src) && (src[j] == '_' || src[j] == '$' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
					j++
				}
				k := j
				for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
					k++
				}
				if k < len(src) && (src[k] == ':' || src[k] == '(') {
					keys = append(keys, src[i:j])
				}
				expectKey = false
				i = j
				continue
			}
			expectKey = expectKey && c != ':'
			if depth == 0 && c != ':' {
				expectKey = false
			}
		}
		i++
	}
	return keys
}

// skipString returns the index after the string literal starting at i
// (len(src) for a string that does not end).
func skipString(src string, i int) int {
	q := src[i]
	i++
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case q:
			return i + 1
		}
		i++
	}
	return len(src)
}
