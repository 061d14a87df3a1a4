package cli

import (
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/plugins"
)

// TestNoFamilyNames: the command line knows the families only through
// the catalog and the capabilities they declare (workload.Commander,
// ClusterResizer, StandInCluster, RateTrender, FlagBinder): no non-test
// file of the package names a built-in family, its package, a scenario
// prefix ("kafka.Produce", "go.Go1Step") or imports a family's package.
// A URL scheme ("http://", "nats://") names a driver and an acronym in
// capitals ("HTTP") a protocol, not a family: they may appear.
// Help texts that show the built-in families live in internal/plugins.
func TestNoFamilyNames(t *testing.T) {
	words := map[string]bool{"ldbc": true, "nebula": true}
	prefixes := map[string]bool{}
	var pkgs []string
	for _, fam := range plugins.Families() {
		words[fam.Name()] = true
		pkg := reflect.TypeOf(fam).Elem().PkgPath()
		pkgs = append(pkgs, pkg)
		words[path.Base(pkg)] = true
		for _, s := range fam.Scenarios() {
			if p, _, ok := strings.Cut(s.Name, "."); ok {
				prefixes[p] = true
			}
		}
	}
	var res []*regexp.Regexp
	for _, w := range sorted(words) {
		title := strings.ToUpper(w[:1]) + w[1:]
		res = append(res, regexp.MustCompile(`\b(?:`+regexp.QuoteMeta(w)+`|`+regexp.QuoteMeta(title)+`)\b(?:[^:]|:[^/]|$)`))
	}
	for _, p := range sorted(prefixes) {
		res = append(res, regexp.MustCompile(`\b`+regexp.QuoteMeta(p)+`\.[A-Z]`))
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		checked++
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, re := range res {
				if m := re.FindString(line); m != "" {
					t.Errorf("%s:%d names a family (%q): ask the catalog for a capability instead: %s", name, i+1, strings.TrimSpace(m), strings.TrimSpace(line))
				}
			}
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, pkg := range pkgs {
				if p == pkg || strings.HasPrefix(p, pkg+"/") {
					t.Errorf("%s imports %s, a family's package", name, p)
				}
			}
		}
	}
	if checked < 10 || len(pkgs) < 3 || len(prefixes) < 3 {
		t.Fatalf("checked %d files for %d families and %d prefixes: is this the package directory?", checked, len(pkgs), len(prefixes))
	}
}

func sorted(set map[string]bool) []string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
