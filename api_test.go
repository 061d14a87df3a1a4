package stampede_test

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
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
	"unicode"
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
}

// notYetPublic are the identifiers of the public API that still expose an
// internal package's type (issue 26 item 3): the family contract (Family,
// Env with its metric registry and drivers, Opened and the engine's
// Scenario behind Runnable), the plan and its result (Plan, Config, Deps,
// Result, thresholds, segments), the output registry and request records,
// and the built-in families' New (which returns a Family). Each is named
// by its package path after the module's, and the test fails when one of
// them no longer exposes anything, so that the list only shrinks.
var notYetPublic = map[string]bool{
	"AsRunnable":           true,
	"Catalog.Add":          true,
	"Catalog.AddFunc":      true,
	"Catalog.Families":     true,
	"DefaultDeps":          true,
	"Deps":                 true,
	"Execute":              true,
	"Family":               true,
	"NewCatalog":           true,
	"NewFamily":            true,
	"Opened":               true,
	"Plan":                 true,
	"PlanScenario":         true,
	"Result":               true,
	"Runnable":             true,
	"families/builtin.New": true,
	"families/graph.New":   true,
	"families/http.New":    true,
	"families/kafka.New":   true,
	"families/nats.New":    true,
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
		if !notYetPublic[id] {
			bad = append(bad, id+why)
		}
	}
	for id := range notYetPublic {
		if _, ok := exposed[id]; !ok {
			bad = append(bad, id+" exposes no internal type any more: take it off notYetPublic")
		}
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

// TestAliasDocsListTheRealFields checks the field lists that the doc
// comments of package stampede's remaining aliases (notYetPublic) copy
// from the internal types: every exported field of the type is named in
// the comment, and every name a comment's field list gives (an indented
// line "Name Type" or "Name, Other Type") is a field or method of it, so
// that go doc of the alias cannot drift from what the type holds.
func TestAliasDocsListTheRealFields(t *testing.T) {
	exports := exportData(t, publicPackages[:1])
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.Open(f)
	})
	pkg, err := imp.Import(module)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if !ts.Assign.IsValid() || !notYetPublic[ts.Name.Name] {
					continue // not an alias, or one of a public type, documented there
				}
				doc := ts.Doc
				if doc == nil {
					doc = gd.Doc
				}
				named, ok := types.Unalias(pkg.Scope().Lookup(ts.Name.Name).Type()).(*types.Named)
				if !ok {
					continue
				}
				st, ok := named.Underlying().(*types.Struct)
				if !ok || doc == nil {
					continue
				}
				checked++
				checkFieldDoc(t, ts.Name.Name, doc.Text(), named, st)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no alias of a struct type found: the test checks nothing")
	}
}

// checkFieldDoc reports the drift between doc, the comment of alias
// name, and the struct st of type named.
func checkFieldDoc(t *testing.T, name, doc string, named *types.Named, st *types.Struct) {
	t.Helper()
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(doc, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		words[w] = true
	}
	members := map[string]bool{}
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Exported() {
			continue
		}
		members[f.Name()] = true
		if !words[f.Name()] {
			t.Errorf("the doc comment of %s does not name its field %s", name, f.Name())
		}
	}
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := range ms.Len() {
		members[ms.At(i).Obj().Name()] = true
	}
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "\t") {
			continue
		}
		list, _, _ := strings.Cut(strings.TrimSpace(line), "//")
		fields := strings.Fields(list)
		if len(fields) < 2 {
			continue
		}
		// The names are what precedes the type: "A, B T" or "A T".
		var names []string
		for _, f := range fields[:len(fields)-1] {
			n := strings.TrimSuffix(f, ",")
			names = append(names, n)
			if !strings.HasSuffix(f, ",") {
				break
			}
		}
		for _, n := range names {
			if n == "" || !unicode.IsUpper(rune(n[0])) {
				break
			}
			if !members[n] {
				t.Errorf("the doc comment of %s lists %s, which the type has not (line %q)", name, n, strings.TrimSpace(line))
			}
		}
	}
}
