package stampede_test

import (
	"bufio"
	"bytes"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// publicPackages are the packages a Go user imports; their exported API
// must be made of their own types, the standard library's and public
// modules', never of an internal package's (a user could not name such a
// type, and go doc would not document it).
var publicPackages = []string{
	"github.com/stampede-bench/stampede",
	"github.com/stampede-bench/stampede/cmdline",
	"github.com/stampede-bench/stampede/families",
	"github.com/stampede-bench/stampede/families/builtin",
	"github.com/stampede-bench/stampede/families/builtin/builtinopt",
	"github.com/stampede-bench/stampede/families/graph",
	"github.com/stampede-bench/stampede/families/graph/graphopt",
	"github.com/stampede-bench/stampede/families/http",
	"github.com/stampede-bench/stampede/families/http/httpopt",
	"github.com/stampede-bench/stampede/families/kafka",
	"github.com/stampede-bench/stampede/families/msgopt",
	"github.com/stampede-bench/stampede/families/kafka/kafkaopt",
	"github.com/stampede-bench/stampede/families/nats",
	"github.com/stampede-bench/stampede/families/nats/natsopt",
	"github.com/stampede-bench/stampede/metric",
	"github.com/stampede-bench/stampede/flags",
	"github.com/stampede-bench/stampede/executor",
	"github.com/stampede-bench/stampede/output",
	"github.com/stampede-bench/stampede/family",
	"github.com/stampede-bench/stampede/threshold",
	"github.com/stampede-bench/stampede/verdict",
	"github.com/stampede-bench/stampede/vu",
	"github.com/stampede-bench/stampede/plan",
}

// TestPublicAPINamesNoInternalType type-checks the public packages from
// their compiled export data and fails for every exported identifier
// whose type, fields or method signatures reach a type of an internal
// package (aliases of internal types included).
func TestPublicAPINamesNoInternalType(t *testing.T) {
	exports := exportData(t, publicPackages)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.Open(f)
	})
	exposed := map[string]string{}
	for _, path := range publicPackages {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatalf("import %s: %v", path, err)
		}
		for id, why := range internalUses(pkg) {
			exposed[id] = why
		}
	}
	var bad []string
	for id, why := range exposed {
		bad = append(bad, id+why)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// exportData lists the export data file of every package the given ones
// depend on, by import path (`go list -export -deps`).
func exportData(t *testing.T, pkgs []string) map[string]string {
	t.Helper()
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}} {{.Export}}"}, pkgs...)
	cmd := exec.Command(gobin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.Bytes())
	}
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		path, file, ok := strings.Cut(sc.Text(), " ")
		if ok && file != "" {
			m[path] = file
		}
	}
	return m
}

const module = "github.com/stampede-bench/stampede"

// internalUses maps every exported identifier of pkg (and member of it)
// that exposes an internal package's type to what it exposes.
func internalUses(pkg *types.Package) map[string]string {
	out := map[string]string{}
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg.Path(), module), "/")
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		id := name
		if rel != "" {
			id = rel + "." + name
		}
		// report records member (".Field", ".Method" or "") of the
		// identifier when typ reaches an internal type.
		report := func(member string, typ types.Type) {
			if n := firstInternal(typ, map[types.Type]bool{}); n != "" {
				out[id+member] = " exposes " + n
			}
		}
		switch o := obj.(type) {
		case *types.TypeName:
			if o.IsAlias() {
				report("", types.Unalias(o.Type()))
				continue
			}
			named, ok := o.Type().(*types.Named)
			if !ok {
				continue
			}
			switch u := named.Underlying().(type) {
			case *types.Struct:
				for i := range u.NumFields() {
					if f := u.Field(i); f.Exported() {
						report("."+f.Name(), f.Type())
					}
				}
			case *types.Interface:
				for i := range u.NumMethods() {
					if m := u.Method(i); m.Exported() {
						report("."+m.Name(), m.Type())
					}
				}
			default:
				report("", u)
			}
			for i := range named.NumMethods() {
				if m := named.Method(i); m.Exported() {
					report("."+m.Name(), m.Type())
				}
			}
		default:
			report("", obj.Type())
		}
	}
	return out
}

// firstInternal is the first internal named type typ is built of, or "".
// Named types of public packages are not entered: they are checked as
// identifiers of their own package.
func firstInternal(typ types.Type, seen map[types.Type]bool) string {
	if seen[typ] {
		return ""
	}
	seen[typ] = true
	switch t := typ.(type) {
	case *types.Alias:
		return firstInternal(types.Unalias(t), seen)
	case *types.Named:
		if p := t.Obj().Pkg(); p != nil && isInternal(p.Path()) {
			return p.Path() + "." + t.Obj().Name()
		}
		for i := range t.TypeArgs().Len() {
			if n := firstInternal(t.TypeArgs().At(i), seen); n != "" {
				return n
			}
		}
		return ""
	case *types.Pointer:
		return firstInternal(t.Elem(), seen)
	case *types.Slice:
		return firstInternal(t.Elem(), seen)
	case *types.Array:
		return firstInternal(t.Elem(), seen)
	case *types.Chan:
		return firstInternal(t.Elem(), seen)
	case *types.Map:
		if n := firstInternal(t.Key(), seen); n != "" {
			return n
		}
		return firstInternal(t.Elem(), seen)
	case *types.Signature:
		for _, tu := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tu.Len() {
				if n := firstInternal(tu.At(i).Type(), seen); n != "" {
					return n
				}
			}
		}
		return ""
	case *types.Struct:
		for i := range t.NumFields() {
			if f := t.Field(i); f.Exported() {
				if n := firstInternal(f.Type(), seen); n != "" {
					return n
				}
			}
		}
		return ""
	case *types.Interface:
		for i := range t.NumMethods() {
			if n := firstInternal(t.Method(i).Type(), seen); n != "" {
				return n
			}
		}
		return ""
	}
	return ""
}

func isInternal(path string) bool {
	return strings.Contains(path, "/internal/") || strings.HasSuffix(path, "/internal")
}
