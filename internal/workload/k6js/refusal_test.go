package k6js

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/usage"
)

// TestPrepareRefuses: what stampede does not implement is a usage error
// of Prepare (exit 2 before the run), naming it; a syntax error names
// file:line:col.
func TestPrepareRefuses(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"module k6/ws", `import ws from 'k6/ws'; export default function () { ws.connect('ws://x'); }`, `module "k6/ws" is not supported`},
		{"module k6/crypto", `import crypto from 'k6/crypto'; export default function () { crypto.sha256('x', 'hex'); }`, `module "k6/crypto" is not supported`},
		{"module k6/encoding", `import encoding from 'k6/encoding'; export default function () { encoding.b64encode('x'); }`, `module "k6/encoding" is not supported`},
		{"module k6/browser", `import { browser } from 'k6/browser'; export default function () { browser.newPage(); }`, `module "k6/browser" is not supported`},
		{"module k6/net/grpc", `import grpc from 'k6/net/grpc'; export default function () { new grpc.Client(); }`, `module "k6/net/grpc" is not supported`},
		{"another extension", `import sql from 'k6/x/sql'; export default function () { sql.open('x'); }`, `module "k6/x/sql" is not supported`},
		{"remote module", `import { randomItem } from 'https://jslib.k6.io/k6-utils/1.2.0/index.js'; export default function () { randomItem([1]); }`, `module "https://jslib.k6.io/k6-utils/1.2.0/index.js" is not supported`},
		{"a module imported for its side effects", `import 'k6/ws'; export default function () {}`, `module "k6/ws" is not supported`},
		{"require of an unknown module", `const ws = require('k6/ws'); export default function () {}`, `module "k6/ws" is not supported`},
		{"http.asyncRequest", `import http from 'k6/http'; export default async function () { await http.asyncRequest('GET', 'http://x/'); }`, "k6/http.asyncRequest is not supported"},
		{"http.file", `import http from 'k6/http'; export default function () { http.post('http://x/', { f: http.file('x') }); }`, "k6/http.file is not supported"},
		{"named import of http.file", `import { file } from 'k6/http'; export default function () { file('x'); }`, "k6/http.file is not supported"},
		{"namespace import", `import * as http from 'k6/http'; export default function () { http.asyncRequest('GET', 'http://x/'); }`, "k6/http.asyncRequest is not supported"},
		{"k6/execution test.fail", `import exec from 'k6/execution'; export default function () { exec.test.fail(); }`, "k6/execution test.fail is not supported"},
		{"k6/execution named import", `import { vu } from 'k6/execution'; export default function () { vu.metrics.tags.x = 1; }`, "k6/execution vu.metrics is not supported"},
		{"k6/execution members used", `import exec from 'k6/execution'; export default function () { if (exec.vu.idInTest > exec.instance.vusActive + exec.scenario.iterationInTest) exec.test.abort(); }`, ""},
		{"k6/metrics Histogram", `import { Histogram } from 'k6/metrics'; const h = new Histogram('h'); export default function () {}`, "k6/metrics.Histogram is not supported"},
		{"option hosts", `export const options = { hosts: { 'a.test': '127.0.0.1' } }; export default function () {}`, `option "hosts" is not supported`},
		{"option rps", `export const options = { rps: 10 }; export default function () {}`, `option "rps" is not supported`},
		{"option dns", `export const options = { dns: { ttl: '1m' } }; export default function () {}`, `option "dns" is not supported`},
		{"option ext", `export const options = { ext: { loadimpact: {} } }; export default function () {}`, `option "ext" is not supported`},
		{"option httpDebug", `export const options = { httpDebug: 'full' }; export default function () {}`, `option "httpDebug" is not supported`},
		{"scenario gracefulRampDown", `export const options = { scenarios: { a: { executor: 'ramping-vus', stages: [{ duration: '1s', target: 1 }], gracefulRampDown: '1s' } } }; export default function () {}`, `option "gracefulRampDown" is not supported`},
		{"externally-controlled executor", `export const options = { scenarios: { a: { executor: 'externally-controlled', vus: 1, duration: '1s' } } }; export default function () {}`, "externally-controlled"},
		{"no default function", `export const options = {};`, "exports no default function"},
		{"exec not exported", `export const options = { scenarios: { a: { executor: 'shared-iterations', exec: 'nope' } } }; export default function () {}`, `exec function "nope" is not exported`},
		{"syntax error", "export default function () {\n  let x = ;\n}\n", "script.js:2:11: syntax error"},
		{"exception in the init context", "const x = 1;\nthrow new Error('init boom');\nexport default function () {}\n", "init boom at "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "script.js")
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Prepare(path, Config{})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Prepare: %v, want it accepted", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Prepare accepted the script, want %q", tc.want)
			}
			if !usage.Is(err) {
				t.Errorf("%v: not a usage error (exit 2)", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}
