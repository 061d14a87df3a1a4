package k6js

import (
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/usage"
)

// FuzzCompileScan: any script source compiles or is refused with one
// usage line, and reading what it imports and checks never panics.
func FuzzCompileScan(f *testing.F) {
	for _, s := range []string{
		`import http from 'k6/http'; import { check } from 'k6'; export default function () { check(http.get('http://x/'), {'ok': (r) => r.status === 200, "b": 1, c: 2, d() { return 1 }}); }`,
		`import ws from 'k6/ws'; export default function () {}`,
		`import exec from 'k6/execution'; export default function () { exec.test.abort(); exec.vu.tags.x = 1; }`,
		"export default function () {\n let x = ;\n}",
		`check(a, {'x\'y': 1, "\u00e9": 2, ` + "`t`" + `: 3})`,
		`type T = { a: number }; export default function (): void {}`,
		`check((0, import_k6.check)(`,
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, ts bool) {
		objectKeysOfSecondArg(src)
		name := "s.js"
		if ts {
			name = "s.ts"
		}
		_, code, err := compile(name, []byte(src))
		if err != nil {
			if !usage.Is(err) {
				t.Fatalf("compile error is not a usage error: %v", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("compile error is not one line: %q", err)
			}
			return
		}
		s := &Script{Path: name, code: map[string]string{"/s": code}}
		if err := checkImports(s); err != nil && !usage.Is(err) {
			t.Fatalf("checkImports: not a usage error: %v", err)
		}
		checkNames(s)
	})
}
