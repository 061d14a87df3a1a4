// Package k6js runs k6 JavaScript test scripts on stampede's engine: one
// goja runtime per VU, reused across iterations, ES module syntax turned
// into CommonJS by esbuild, and k6's modules (k6, k6/http, k6/metrics,
// k6/data, k6/execution, k6/x/nebulagraph) implemented on stampede's
// drivers and recorders, so that a script records the metric names k6
// records. What a script asks for that is not implemented is refused
// before the run, naming it.
package k6js

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/stampede-bench/stampede/internal/usage"
)

// MaxScriptSize bounds a script or local module read from disk (bytes).
const MaxScriptSize = 16 << 20

// MaxOpenSize bounds a file read with open() (bytes).
const MaxOpenSize = 256 << 20

// IsScript reports whether arg names a script file: a path ending in .js,
// .mjs, .cjs or .ts.
func IsScript(arg string) bool {
	switch strings.ToLower(filepath.Ext(arg)) {
	case ".js", ".mjs", ".cjs", ".ts":
		return true
	}
	return false
}

// Script is a compiled script and the local modules it requires, shared
// by every VU (goja programs are immutable).
type Script struct {
	// Path is the script as given; Dir its directory (for open() and
	// relative imports).
	Path, Dir string

	mu      sync.Mutex
	modules map[string]*goja.Program // absolute path -> compiled module
	code    map[string]string        // absolute path -> CommonJS source
}

// Load reads and compiles the script at path. A missing file or a syntax
// error is a usage error showing file:line:col.
func Load(path string) (*Script, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, usage.Errorf("script %s: %v", path, err)
	}
	s := &Script{Path: path, Dir: filepath.Dir(abs), modules: map[string]*goja.Program{}, code: map[string]string{}}
	if _, err := s.module(abs, path); err != nil {
		return nil, err
	}
	return s, nil
}

// sources returns the CommonJS source of every module compiled so far.
func (s *Script) sources() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.code))
	for _, c := range s.code {
		out = append(out, c)
	}
	return out
}

// module compiles (once) the file at abs, shown as name in messages.
func (s *Script) module(abs, name string) (*goja.Program, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.modules[abs]; ok {
		return p, nil
	}
	src, err := readBounded(abs, MaxScriptSize)
	if err != nil {
		return nil, usage.Errorf("script %s: %v", name, err)
	}
	p, code, err := compile(name, src)
	if err != nil {
		return nil, err
	}
	s.modules[abs], s.code[abs] = p, code
	return p, nil
}

// compile turns ES module (or TypeScript) source into a goja program: a
// function (exports, require, module) whose body is the CommonJS form.
func compile(name string, src []byte) (*goja.Program, string, error) {
	loader := api.LoaderJS
	if strings.EqualFold(filepath.Ext(name), ".ts") {
		loader = api.LoaderTS
	}
	res := api.Transform(string(src), api.TransformOptions{
		Loader: loader, Format: api.FormatCommonJS, Target: api.ES2017,
		Sourcefile: name, Sourcemap: api.SourceMapInline, Platform: api.PlatformNeutral,
	})
	if len(res.Errors) > 0 {
		m := res.Errors[0]
		if l := m.Location; l != nil {
			return nil, "", usage.Errorf("%s:%d:%d: syntax error: %s", l.File, l.Line, l.Column+1, m.Text)
		}
		return nil, "", usage.Errorf("%s: syntax error: %s", name, m.Text)
	}
	// A built-in module is its own default export: no __toESM copy (a
	// getter per member per VU) is needed.
	cjs := builtinToESM.ReplaceAllString(string(res.Code), `require("$1")`)
	code := "(function (exports, require, module, __filename, __dirname) {" + cjs + "\n})"
	p, err := goja.Compile(name, code, false)
	if err != nil {
		return nil, "", usage.Errorf("%s: %v", name, err)
	}
	return p, cjs, nil
}

// builtinToESM matches esbuild's __toESM(require("k6...")) of built-in modules.
var builtinToESM = regexp.MustCompile(`__toESM\(require\("(k6(?:/[a-z0-9/]+)?)"\)\)`)

// readBounded reads at most limit bytes of path; a longer file is an error.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("larger than %d MiB", limit>>20)
	}
	return b, nil
}
